//===- PtxAssembler.h - PTX to a binary the driver loads --------*- C++ -*-===//
//
// The second half of the NVPTX emitter. PTX becomes a cubin through a
// `ptxas` subprocess when the toolkit has one, else through nvJitLink in
// the process, else it stays PTX (format "ptx") for the driver to compile
// when the module is loaded. Both assemblers run with -O3 and verbose
// output, from which the kernel's registers and spilled bytes are read.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_PTXASSEMBLER_H
#define TESSERA_BACKENDS_NVPTX_PTXASSEMBLER_H

#include "tessera/Backend/Backend.h"
#include "tessera/Backend/CompiledKernel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tessera::nvptx {

/// The CompileOptions::extra key that forces a route: "nvjitlink", "ptxas"
/// or "driver"; absent or "auto" tries them in that order.
inline constexpr char kAssemblerOption[] = "ptx-assembler";

/// The CompiledKernel::metadata keys the assembler fills: the route taken,
/// the assembler's log, and (route "driver" only) the register limit the
/// driver's JIT must apply.
inline constexpr char kAssemblerMetadata[] = "ptx-assembler";
inline constexpr char kAssemblerLogMetadata[] = "ptx-assembler-log";
inline constexpr char kMaxRegistersMetadata[] = "max-registers";

/// How PTX becomes loadable code, in the order the automatic choice tries.
enum class PtxRoute { NvJitLink, Ptxas, Driver };

/// "nvjitlink", "ptxas", "driver".
llvm::StringRef getPtxRouteName(PtxRoute route);

/// The route `options` force, std::nullopt for the automatic choice; an
/// unknown name is an error listing the accepted ones.
llvm::Expected<std::optional<PtxRoute>>
getForcedPtxRoute(const CompileOptions &options);

/// The route the automatic choice takes for `ptx` on this machine: ptxas
/// if found (a whole-program compile, faster than nvJitLink's relocatable
/// one on large kernels); else nvJitLink if it loads, unless the PTX uses
/// `setmaxnreg` (which nvJitLink drops); else the driver.
PtxRoute choosePtxRoute(llvm::StringRef ptx);

/// The assembler options (without input and output files) for `arch`
/// ("sm_90a"): -arch, -O3, the register limit, line info and verbose
/// output, spelled for nvJitLink or ptxas.
std::vector<std::string> getAssemblerOptions(PtxRoute route,
                                             llvm::StringRef arch,
                                             const CompileOptions &options);

/// Registers and spilled bytes of one function, from a verbose ptxas or
/// nvJitLink log; -1 where the log does not say.
struct ResourceUsage {
  int registers = -1;
  int spillBytes = -1;
};

/// The usage of `kernelName` in `log`: the lines after its "Compiling entry
/// function" or "Function properties for" header ("Used N registers",
/// "N bytes spill stores"). When the log names no function, the first
/// numbers it holds.
ResourceUsage parseResourceUsage(llvm::StringRef log,
                                 llvm::StringRef kernelName);

/// Assembles `ptx`, whose entry is `kernelName`, for `arch` through the
/// route `options` force or the automatic choice, and fills `kernel`'s
/// binary, format ("cubin" or "ptx"), registers and spillBytes, and the
/// metadata above. Nothing else of `kernel` is touched. The error of a
/// failed assembly carries the assembler's log.
llvm::Error assemblePTX(llvm::StringRef ptx, llvm::StringRef kernelName,
                        llvm::StringRef arch, const CompileOptions &options,
                        CompiledKernel &kernel);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_PTXASSEMBLER_H
