//===- PtxAssembler.cpp - PTX to a binary the driver loads ----------------===//
//
// An assembler that runs and fails reports the failure; the next route is
// not tried, because it would fail on the same PTX and hide the message.
// Only a missing assembler moves the automatic choice along.
//
//===----------------------------------------------------------------------===//
#include "PtxAssembler.h"
#include "NvJitLink.h"
#include "Target.h"
#include "Toolkit.h"

#include "tessera/Support/Logging.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "nvptx: " + message);
}

/// A temporary file removed when this goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  std::optional<llvm::FileRemover> remover;
};

llvm::Error createTempFile(llvm::StringRef suffix, TempFile &file) {
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "tessera-ptxas", suffix, file.path))
    return fail("cannot create a temporary ." + suffix +
                " file: " + ec.message());
  file.remover.emplace(file.path);
  return llvm::Error::success();
}

/// Runs ptxas on `ptx` with `options`; the cubin and ptxas's output.
llvm::Error runPtxas(llvm::StringRef ptxas, llvm::StringRef ptx,
                     llvm::ArrayRef<std::string> options, llvm::StringRef what,
                     std::string &cubin, std::string &log) {
  TempFile input, output, messages;
  if (llvm::Error err = createTempFile("ptx", input))
    return err;
  if (llvm::Error err = createTempFile("cubin", output))
    return err;
  if (llvm::Error err = createTempFile("log", messages))
    return err;
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input.path, ec);
    if (!ec) {
      os << ptx;
      os.close();
      ec = os.error();
    }
    if (ec)
      return fail("cannot write " + input.path + ": " + ec.message());
  }
  llvm::SmallVector<llvm::StringRef> argv = {ptxas};
  for (const std::string &option : options)
    argv.push_back(option);
  argv.append({input.path, "-o", output.path});
  // ptxas writes its -v report and its errors to either stream; keep both
  // in one file, in order.
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(),
                                                llvm::StringRef(messages.path),
                                                llvm::StringRef(messages.path)};
  std::string execError;
  bool executionFailed = false;
  int rc = llvm::sys::ExecuteAndWait(ptxas, argv, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &execError, &executionFailed);
  if (auto buffer = llvm::MemoryBuffer::getFile(messages.path))
    log = (*buffer)->getBuffer().rtrim().str();
  std::string command = llvm::join(argv, " ");
  if (executionFailed)
    return fail("cannot run " + command + ": " + execError);
  if (rc != 0)
    return fail("ptxas (" + ptxas + ") failed assembling " + what + " (" +
                (rc < 0 ? execError : "exit code " + std::to_string(rc)) +
                "; " + command + ")" + (log.empty() ? "" : ":\n" + log));
  auto buffer = llvm::MemoryBuffer::getFile(output.path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fail("ptxas wrote no readable " + output.path + ": " +
                buffer.getError().message());
  cubin = (*buffer)->getBuffer().str();
  return llvm::Error::success();
}

/// The first decimal number `regex` captures in `line`, or -1.
int match(const llvm::Regex &regex, llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef, 2> groups;
  int value = -1;
  if (regex.match(line, &groups) && groups.size() > 1 &&
      !groups[1].getAsInteger(10, value))
    return value;
  return -1;
}

} // namespace

llvm::StringRef nvptx::getPtxRouteName(PtxRoute route) {
  switch (route) {
  case PtxRoute::NvJitLink:
    return "nvjitlink";
  case PtxRoute::Ptxas:
    return "ptxas";
  case PtxRoute::Driver:
    return "driver";
  }
  llvm_unreachable("unknown PTX route");
}

llvm::Expected<std::optional<PtxRoute>>
nvptx::getForcedPtxRoute(const CompileOptions &options) {
  auto it = options.extra.find(kAssemblerOption);
  if (it == options.extra.end() || it->second.empty() || it->second == "auto")
    return std::nullopt;
  for (PtxRoute route :
       {PtxRoute::NvJitLink, PtxRoute::Ptxas, PtxRoute::Driver})
    if (it->second == getPtxRouteName(route))
      return route;
  return fail(llvm::Twine("unknown ") + kAssemblerOption + " '" + it->second +
              "'; expected auto, nvjitlink, ptxas or driver");
}

PtxRoute nvptx::choosePtxRoute(llvm::StringRef ptx) {
  // ptxas compiles the whole program; nvJitLink compiles PTX as a
  // relocatable unit, which took 1.4-2.1x ptxas's time on kernels that
  // spill (tutorial 03 at 256x64x128 over 4 warps: 4.0 s against 2.7 s,
  // CUDA 13.0) and as long on the rest, and ignores setmaxnreg there
  // (warning C7504), which warp-specialized kernels depend on. So ptxas
  // when the toolkit has it, else nvJitLink in the process, else the
  // driver.
  if (llvm::Expected<std::string> ptxas = findPtxas())
    return PtxRoute::Ptxas;
  else
    getLogger().debug("nvptx: {}", llvm::toString(ptxas.takeError()));
  if (!ptx.contains("setmaxnreg")) {
    if (llvm::Expected<const NvJitLink &> lib = NvJitLink::get())
      return PtxRoute::NvJitLink;
    else
      getLogger().debug("nvptx: {}", llvm::toString(lib.takeError()));
  }
  return PtxRoute::Driver;
}

std::vector<std::string>
nvptx::getAssemblerOptions(PtxRoute route, llvm::StringRef arch,
                           const CompileOptions &options) {
  bool nvJitLink = route == PtxRoute::NvJitLink;
  std::vector<std::string> result = {"-arch=" + arch.str(), "-O3"};
  if (options.maxNumRegs > 0)
    result.push_back((nvJitLink ? "-maxrregcount=" : "--maxrregcount=") +
                     std::to_string(options.maxNumRegs));
  if (options.lineInfo)
    result.push_back("-lineinfo");
  // The register and spill report the CompiledKernel is filled from.
  result.push_back(nvJitLink ? "-verbose" : "-v");
  return result;
}

ResourceUsage nvptx::parseResourceUsage(llvm::StringRef log,
                                        llvm::StringRef kernelName) {
  // ptxas:     "Compiling entry function 'k' for 'sm_90a'",
  //            "Function properties for k", "Used 12 registers, ...",
  //            "0 bytes stack frame, 8 bytes spill stores, 8 bytes ...".
  // nvJitLink: the same with a "ptxas" prefix, then a summary per kernel:
  //            "Function properties for 'k':", "used 12 registers, ...".
  static const llvm::Regex entry("Compiling entry function '([^']+)'");
  static const llvm::Regex properties("Function properties for '?([^':]+)");
  static const llvm::Regex registers("[Uu]sed ([0-9]+) registers");
  static const llvm::Regex spills("([0-9]+) bytes spill stores");
  llvm::StringMap<ResourceUsage> byFunction;
  ResourceUsage first;
  std::string current;
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef, 2> groups;
    if (entry.match(line, &groups) || properties.match(line, &groups)) {
      current = groups[1].trim().str();
      continue;
    }
    int regs = match(registers, line);
    int spilled = match(spills, line);
    if (regs >= 0) {
      if (first.registers < 0)
        first.registers = regs;
      if (!current.empty())
        byFunction[current].registers = regs;
    }
    if (spilled >= 0) {
      if (first.spillBytes < 0)
        first.spillBytes = spilled;
      if (!current.empty())
        byFunction[current].spillBytes = spilled;
    }
  }
  if (auto it = byFunction.find(kernelName); it != byFunction.end())
    return it->second;
  return byFunction.empty() ? first : ResourceUsage();
}

llvm::Error nvptx::assemblePTX(llvm::StringRef ptx, llvm::StringRef kernelName,
                               llvm::StringRef archName,
                               const CompileOptions &options,
                               CompiledKernel &kernel) {
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<Arch> arch = parseArch(archName);
  if (!arch)
    return arch.takeError();
  llvm::Expected<std::optional<PtxRoute>> forced = getForcedPtxRoute(options);
  if (!forced)
    return forced.takeError();
  PtxRoute route = *forced ? **forced : choosePtxRoute(ptx);
  std::vector<std::string> assemblerOptions =
      getAssemblerOptions(route, arch->str(), options);
  std::string what = "'" + kernelName.str() + "' for " + arch->str();

  std::string cubin, log;
  switch (route) {
  case PtxRoute::NvJitLink: {
    llvm::Expected<const NvJitLink &> lib = NvJitLink::get();
    if (!lib)
      return lib.takeError();
    llvm::Expected<NvJitLink::Output> output =
        lib->compile(ptx, kernelName.str() + ".ptx", assemblerOptions);
    if (!output)
      return fail("cannot assemble " + what + " with " +
                  llvm::toString(output.takeError()));
    cubin = std::move(output->cubin);
    log = std::move(output->infoLog);
    break;
  }
  case PtxRoute::Ptxas: {
    llvm::Expected<std::string> ptxas = findPtxas();
    if (!ptxas)
      return ptxas.takeError();
    if (llvm::Error err =
            runPtxas(*ptxas, ptx, assemblerOptions, what, cubin, log))
      return err;
    break;
  }
  case PtxRoute::Driver:
    break;
  }

  kernel.metadata[kAssemblerMetadata] = getPtxRouteName(route).str();
  kernel.metadata.erase(kMaxRegistersMetadata);
  if (route == PtxRoute::Driver) {
    // The driver compiles it when the module is loaded; what it reports
    // then (CudaDriver::getKernelResources) is all that is known.
    kernel.format = "ptx";
    kernel.binary = ptx.str();
    kernel.registers = -1;
    kernel.spillBytes = -1;
    kernel.metadata.erase(kAssemblerLogMetadata);
    if (options.maxNumRegs > 0)
      kernel.metadata[kMaxRegistersMetadata] =
          std::to_string(options.maxNumRegs);
  } else {
    ResourceUsage usage = parseResourceUsage(log, kernelName);
    kernel.format = "cubin";
    kernel.binary = std::move(cubin);
    kernel.registers = usage.registers;
    kernel.spillBytes = usage.spillBytes;
    kernel.metadata[kAssemblerLogMetadata] = log;
  }
  getLogger().debug(
      "nvptx: {} through {} in {:.1f} ms: {} bytes, {} registers, {} bytes "
      "spilled",
      what, getPtxRouteName(route),
      std::chrono::duration<double, std::milli>(
          std::chrono::steady_clock::now() - start)
          .count(),
      kernel.binary.size(), kernel.registers, kernel.spillBytes);
  return llvm::Error::success();
}
