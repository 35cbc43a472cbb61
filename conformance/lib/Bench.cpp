//===- Bench.cpp - tessera bench ------------------------------------------===//
#include "tessera/Conformance/Bench.h"

#include "Session.h"

#include "tessera/Conformance/Conformance.h"
#include "tessera/Conformance/Report.h"
#include "tessera/Conformance/Suite.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;
namespace cl = llvm::cl;

double BenchMeasurement::getRate() const {
  if (milliseconds <= 0)
    return 0;
  double perSecond = 1e3 / milliseconds;
  return flops > 0 ? flops * perSecond / 1e12 : bytes * perSecond / 1e9;
}

llvm::StringRef BenchMeasurement::getUnit() const {
  return flops > 0 ? "TFLOP/s" : "GB/s";
}

void BenchContext::time(llvm::StringRef variant,
                        const std::function<void()> &launchOnce) {
  if (hasFailed())
    return;
  runtime::Device *device = getRuntime().getDevice();
  if (!device) {
    fail("no device to time on");
    return;
  }
  // Compile (and tune) outside the timing: the first launch pays for it.
  launchOnce();
  if (hasFailed())
    return;
  llvm::Expected<runtime::BenchStats> stats = runtime::benchmark(
      device->getDriver(), device->getIndex(),
      [&]() -> llvm::Error {
        launchOnce();
        if (hasFailed())
          return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                         "launch failed");
        return llvm::Error::success();
      },
      options);
  if (!stats) {
    // A failed launch already holds the real message.
    llvm::Error err = stats.takeError();
    if (hasFailed())
      llvm::consumeError(std::move(err));
    else
      fail(std::move(err));
    return;
  }
  note(llvm::formatv("{0}: {1:f3} ms median over {2} runs", variant,
                     stats->median, stats->runs));
  if (!measured || stats->median < measurement.milliseconds) {
    measurement.milliseconds = stats->median;
    measurement.variant = variant.str();
    measured = true;
  }
}

namespace {
struct BenchResult {
  const BenchSpec *spec;
  BenchMeasurement measurement;
  std::string error;
  std::string notes;
  double seconds = 0;
};
} // namespace

int mlir::tessera::conformance::runBenchmarks(int argc, char **argv) {
  llvm::StringRef program = argv[0];
  cl::OptionCategory category("Benchmark options");
  SessionFlags flags(category);
  cl::opt<bool> full("full",
                     cl::desc("The GUIDE's shapes even on the cpu backend"),
                     cl::cat(category));
  cl::opt<bool> scaledFlag("scaled",
                           cl::desc("CPU-sized shapes even on a GPU backend"),
                           cl::cat(category));
  cl::opt<bool> list("list", cl::desc("List the workloads and exit"),
                     cl::cat(category));
  if (!parseFlags(argc, argv, category,
                  "tessera bench: times the benchmark workloads of the "
                  "conformance kernels (do_bench-style medians) and prints "
                  "GB/s or TFLOP/s"))
    return 2;

  std::string conformanceDir = findConformanceDir(argv[0]);
  SuiteOptions suiteOptions;
  suiteOptions.kernelDir = flags.kernelsDir.empty()
                               ? conformanceDir + "/kernels"
                               : flags.kernelsDir.getValue();
  std::optional<Session> session;
  if (!list) {
    llvm::Expected<Session> opened = openSession(flags);
    if (!opened) {
      printError(program, opened.takeError());
      return 2;
    }
    session = std::move(*opened);
  }
  std::string backend = session ? session->backend
                                : runtime::resolveBackendRequest(flags.session.backend);
  bool onCpu = backend == runtime::kFallbackBackend;
  // The GUIDE's shapes take minutes per workload on a CPU.
  suiteOptions.scaledBenchmarks = scaledFlag || (onCpu && !full);
  llvm::Expected<ConfigMode> mode =
      getConfigMode(flags, onCpu ? ConfigMode::Subset : ConfigMode::Tune);
  if (!mode) {
    printError(program, mode.takeError());
    return 2;
  }
  suiteOptions.configMode = *mode;
  std::unique_ptr<Suite> suite = buildTutorialSuite(suiteOptions);

  std::vector<std::string> ids;
  for (const BenchSpec &spec : suite->getBenchmarks())
    ids.push_back(spec.getId());
  if (llvm::Error err = checkFiltersMatch(flags.kernelFilters, ids)) {
    printError(program, std::move(err));
    return 2;
  }

  if (list) {
    for (const BenchSpec &spec : suite->getBenchmarks())
      if (matchesFilter(flags.kernelFilters, spec.getId()))
        llvm::outs() << spec.getId() << (spec.scaled ? " (scaled)" : "")
                     << "\n";
    return 0;
  }

  llvm::raw_ostream &os = llvm::outs();
  os << "tessera bench: backend " << session->backend << ", arch "
     << session->arch << ", device "
     << (session->device.empty() ? "none" : session->device) << "\n"
     << "configs: " << stringifyConfigMode(*mode)
     << (suiteOptions.scaledBenchmarks
             ? "; shapes scaled down from the GUIDE's (--full for those)"
             : "")
     << "\n\n";
  os.flush();

  const std::string jsonPath = flags.json.getValue();
  const std::vector<std::string> filters(flags.kernelFilters.begin(),
                                         flags.kernelFilters.end());
  KernelLibrary kernels(*session->runtime, *suite);
  runtime::BenchOptions benchOptions = session->runtime->getOptions().tuning;
  std::vector<BenchResult> results;
  bool failed = false;
  auto start = std::chrono::steady_clock::now();
  for (const BenchSpec &spec : suite->getBenchmarks()) {
    if (!matchesFilter(filters, spec.getId()))
      continue;
    BenchResult result{&spec, {}, "", "", 0};
    auto benchStart = std::chrono::steady_clock::now();
    if (std::optional<std::string> reason =
            getUnsupportedReason(spec.requirements, session->target)) {
      result.error = "not supported: " + *reason;
    } else {
      BenchContext ctx(kernels, session->target, spec.file,
                       deriveSeed(0, spec.getId()), benchOptions);
      spec.run(ctx);
      CaseOutcome outcome = ctx.takeOutcome();
      result.notes = ctx.getNotes();
      if (outcome.error) {
        result.error = *outcome.error;
        failed = true;
      } else if (!ctx.hasMeasurement()) {
        result.error = "nothing was timed";
        failed = true;
      } else {
        result.measurement = ctx.getMeasurement();
      }
    }
    result.seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - benchStart)
                         .count();
    if (result.error.empty())
      os << llvm::formatv(
          "{0,-60} {1,10:f3} ms {2,10:f2} {3,-7}  {4}\n",
          spec.getId() + (spec.scaled ? " (scaled)" : ""),
          result.measurement.milliseconds, result.measurement.getRate(),
          result.measurement.getUnit(), result.measurement.variant);
    else
      os << llvm::formatv("{0,-60} {1}\n",
                          spec.getId() + (spec.scaled ? " (scaled)" : ""),
                          llvm::StringRef(result.error).split('\n').first);
    os.flush();
    results.push_back(std::move(result));
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  os << llvm::formatv("\n{0} workloads in {1:f1} s\n", results.size(), seconds);

  if (!jsonPath.empty()) {
    llvm::json::Array entries;
    for (const BenchResult &r : results) {
      llvm::json::Object entry{
          {"id", r.spec->getId()},    {"file", r.spec->file},
          {"kernel", r.spec->kernel}, {"workload", r.spec->name},
          {"scaled", r.spec->scaled}, {"seconds", r.seconds},
          {"notes", r.notes},
      };
      if (r.error.empty()) {
        entry["milliseconds"] = r.measurement.milliseconds;
        entry["rate"] = toJSONNumber(r.measurement.getRate());
        entry["unit"] = r.measurement.getUnit();
        entry["variant"] = r.measurement.variant;
      } else {
        entry["error"] = r.error;
      }
      entries.push_back(std::move(entry));
    }
    llvm::json::Object root{
        {"tool", "tessera bench"},
        {"backend", session->backend},
        {"arch", session->arch},
        {"device", session->device},
        {"configs", stringifyConfigMode(*mode)},
        {"scaled", suiteOptions.scaledBenchmarks},
        {"seconds", seconds},
        {"workloads", std::move(entries)},
    };
    if (llvm::Error err = writeJSONFile(std::move(root), jsonPath)) {
      printError(program, std::move(err));
      return 2;
    }
  }
  return failed ? 1 : 0;
}
