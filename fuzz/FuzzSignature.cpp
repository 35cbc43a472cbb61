//===- FuzzSignature.cpp - Fuzz target: signatures and constexpr values ---===//
//
// What `tessera compile --signature SIG --constexpr NAME=VALUE` and the
// runtime read from their users: the first line of the input is an
// ahead-of-time signature, each later line a NAME=VALUE constexpr; both
// are parsed, evaluated and bound to the parameters of a fixed kernel,
// whose specialization key is then computed. Each comma-separated entry is
// also looked up as a scalar type name.
//
//===----------------------------------------------------------------------===//
#include "FuzzScan.h"
#include "FuzzSupport.h"

#include "tessera/Frontend/Codegen/Types.h"
#include "tessera/Frontend/Compile.h"
#include "tessera/Frontend/HostEvaluator.h"
#include "tessera/Frontend/KernelModule.h"
#include "tessera/Runtime/ScalarTypes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tessera::frontend;

namespace {
constexpr llvm::StringLiteral kKernelFile = R"py(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, n, m: tl.int64, scale: tl.float32, BLOCK: tl.constexpr,
      DTYPE: tl.constexpr = tl.float16, FLAG: tl.constexpr = False):
    pass
)py";
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  tessera::fuzz::silenceLogging();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text = tessera::fuzz::asText(data, size);
  auto [signature, rest] = text.split('\n');
  std::vector<std::string> named;
  llvm::SmallVector<llvm::StringRef> lines;
  rest.split(lines, '\n', /*MaxSplit=*/16, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines)
    named.push_back(line.str());

  llvm::raw_null_ostream sink;
  tessera::fuzz::ScannedFile file(kKernelFile, "kernel.py", sink);
  KernelModule *module = file.module.get();
  DiagnosticEngine &diags = file.diags;
  HostEvaluator eval(module, diags);

  llvm::Expected<std::vector<SignatureEntry>> entries =
      Specialization::parseSignature(signature, eval);
  if (entries) {
    llvm::Expected<Specialization> spec = Specialization::build(
        *module->getJitFunctions().front().def, *entries, {}, eval);
    if (spec)
      (void)spec->key();
    else
      llvm::consumeError(spec.takeError());
  } else {
    llvm::consumeError(entries.takeError());
  }
  llvm::FailureOr<Specialization> spec =
      specializeKernel(*module, "k", signature, named, std::nullopt, diags);
  if (succeeded(spec))
    (void)spec->key();

  llvm::SmallVector<llvm::StringRef> parts;
  signature.split(parts, ',');
  for (llvm::StringRef part : parts) {
    llvm::StringRef name = part.trim().split(':').first;
    (void)TType::parseScalarName(name.ltrim('*'));
    (void)mlir::tessera::runtime::lookupScalarType(name);
    (void)mlir::tessera::runtime::getScalarTypeBytes(name);
  }
  return 0;
}
