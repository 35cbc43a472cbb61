//===- Binding.h - Shared pieces of the tessera._C binding ------*- C++ -*-===//
//
// tessera._C is a thin nanobind layer over the C++ runtime: a Session is a
// runtime::Runtime, a Kernel a runtime::JitKernel, TuningRecords a
// runtime::Autotuner. The compiler, the caches and the plugins stay in the
// C++ libraries; this layer converts Python values and errors.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PYTHON_BINDING_H
#define TESSERA_PYTHON_BINDING_H

#include "tessera/Runtime/Compiler.h"
#include "tessera/Runtime/JitKernel.h"
#include "tessera/Runtime/Runtime.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

#include <nanobind/nanobind.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace tessera::python {

namespace nb = nanobind;
namespace rt = mlir::tessera::runtime;

/// A compile or launch error of the runtime; Python sees it as
/// tessera._C.TesseraError, whose text is the compiler's (file:line:col,
/// source line, caret).
class TesseraError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The message of `err`, without trailing newlines.
std::string takeMessage(llvm::Error err);

/// Throws TesseraError with the message of `err` when it is an error.
void check(llvm::Error err);

/// The value of `value`, or throws TesseraError with its error.
template <typename T> T unwrap(llvm::Expected<T> value) {
  if (!value)
    throw TesseraError(takeMessage(value.takeError()));
  if constexpr (std::is_reference_v<T>)
    return *value;
  else
    return std::move(*value);
}

/// A runtime session (Session in Python).
class PySession {
public:
  explicit PySession(std::unique_ptr<rt::Runtime> runtime);
  ~PySession();

  rt::Runtime &getRuntime() const { return *runtime; }
  /// The backend's name ("cpu", "nvptx", ...).
  const std::string &getBackend() const { return backend; }
  /// The architecture kernels compile for.
  const std::string &getArch() const { return arch; }
  /// The torch device type tensors of this backend live on ("cpu" or
  /// "cuda"), and the device index.
  const std::string &getTorchDeviceType() const { return torchDevice; }
  unsigned getDeviceIndex() const { return deviceIndex; }
  /// True when tensors live in host memory (NumPy arrays may be passed).
  bool isHostMemory() const { return hostMemory; }

private:
  std::unique_ptr<rt::Runtime> runtime;
  std::string backend, arch, torchDevice;
  unsigned deviceIndex = 0;
  bool hostMemory = false;
};

/// A jit function of a program or file (Kernel in Python).
class PyKernel {
public:
  PyKernel(nb::object session, std::unique_ptr<rt::JitKernel> kernel);
  ~PyKernel();

  PySession &getSession() const { return nb::cast<PySession &>(session); }
  const nb::object &getSessionObject() const { return session; }
  rt::JitKernel &getKernel() const { return *kernel; }
  const std::shared_ptr<rt::JitKernel> &getSharedKernel() const {
    return kernel;
  }

  /// The Python CompiledKernel of `variant`, made once per variant.
  nb::object getHandle(const rt::KernelVariant &variant);

private:
  /// Declared first: the kernel unloads its modules through the session's
  /// device, so the session outlives it.
  nb::object session;
  std::shared_ptr<rt::JitKernel> kernel;
  /// The handles refer to the session and the JitKernel, never to this
  /// object, so that no reference cycle keeps a kernel alive.
  llvm::DenseMap<const rt::KernelVariant *, nb::object> handles;
};

/// The handle of a compiled variant (CompiledKernel in Python). It keeps
/// what the variant lives in: the JitKernel's table, and the session whose
/// device holds the loaded module (declared first, destroyed last).
struct PyCompiledKernel {
  nb::object session;
  std::shared_ptr<rt::JitKernel> kernel;
  const rt::KernelVariant *variant = nullptr;
  /// An ahead-of-time compilation (Kernel.compile) owns its variant, which
  /// is in no dispatch table, and keeps the request that made it: its other
  /// stages are compiled from that request.
  std::shared_ptr<const rt::KernelVariant> owned;
  std::shared_ptr<const rt::CompileRequest> request;
  /// The `asm` mapping, made on first access (it keeps what it compiled).
  nb::object stages;
};

void bindSession(nb::module_ &m);
void bindKernel(nb::module_ &m);
void bindTuning(nb::module_ &m);

} // namespace tessera::python

#endif // TESSERA_PYTHON_BINDING_H
