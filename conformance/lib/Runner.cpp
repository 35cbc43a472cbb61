//===- Runner.cpp - tessera conformance -----------------------------------===//
//
// Runs every selected case of the suite on one session, in order, and
// reports: a line per case as it finishes, the table, the details of the
// cases that did not pass, and the JSON report. Exit codes follow
// Conformance.h: 0 when nothing failed, 1 on a failure or an unexpected
// pass, 2 on a usage or setup error. With --compile-only the cases run on
// a session without a device and compile their launches instead
// (CaseContext.h); a case that compiled is `compiled`, one whose
// compilation failed is `fail`. With --jobs above 1 every case first runs
// compiling only, the cases on several threads, so that the run in order
// finds its kernels compiled: the reports are the same (the run in order
// records what it finds as before), only sooner.
//
//===----------------------------------------------------------------------===//
#include "tessera/Conformance/Conformance.h"

#include "Session.h"

#include "tessera/Conformance/CaseContext.h"
#include "tessera/Conformance/Expectations.h"
#include "tessera/Conformance/Report.h"
#include "tessera/Conformance/ReportCompare.h"
#include "tessera/Conformance/Suite.h"
#include "tessera/Runtime/Environment.h"
#include "tessera/Support/Logging.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;
namespace cl = llvm::cl;

namespace {
/// The case this thread runs now, named if the process crashes in it.
thread_local const char *currentCase = nullptr;

void reportCrashedCase(void *) {
  if (const char *id = currentCase)
    llvm::errs() << "tessera conformance: crashed while running case " << id
                 << "\n";
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Runs `spec` and fills its report.
CaseReport runCase(const CaseSpec &spec, KernelLibrary &kernels,
                   const Session &session, const Expectations &expectations,
                   uint64_t seed) {
  CaseReport report;
  report.id = spec.getId();
  report.file = spec.file;
  report.kernel = spec.kernel;
  report.name = spec.name;
  auto start = std::chrono::steady_clock::now();
  CaseOutcome outcome;
  std::string notes;
  if (std::optional<std::string> reason =
          getUnsupportedReason(spec.requirements, session.target)) {
    outcome.unsupportedReason = std::move(reason);
  } else {
    CaseContext ctx(kernels, session.target, spec.file,
                    deriveSeed(seed, report.id));
    currentCase = report.id.c_str();
    spec.run(ctx);
    currentCase = nullptr;
    outcome = ctx.takeOutcome();
    notes = ctx.getNotes();
    report.kernels = ctx.takeCompileRecords();
  }
  report.seconds = secondsSince(start);

  const ExpectationEntry *entry = expectations.lookup(report.id);
  std::optional<std::string> expected;
  if (entry)
    expected = entry->reason;
  report.status = deriveStatus(outcome, expected);
  report.checks = std::move(outcome.checks);
  if (outcome.unsupportedReason)
    report.message = *outcome.unsupportedReason;
  else if (outcome.error)
    report.message = *outcome.error;
  if (entry) {
    std::string where =
        (report.status == Status::Compiled ? "expected to fail when run: "
                                           : "expected to fail: ") +
        expectations.getFilename().str() + ":" + std::to_string(entry->line) +
        ": " + entry->reason;
    report.message =
        report.message.empty() ? where : report.message + "\n" + where;
  }
  report.notes = std::move(notes);
  return report;
}

/// Runs each of `cases` compiling only, without a record (CaseContext's
/// aheadOfTime), on up to `threads` threads at once. What they compile
/// stays in the session's kernel tables for the run in order, which finds
/// it whatever order it compiled in (a kernel compiles each key once: a
/// thread missing on a key another thread compiles waits for it).
void compileAhead(llvm::ArrayRef<const CaseSpec *> cases,
                  KernelLibrary &kernels, const Session &session, uint64_t seed,
                  unsigned threads) {
  std::vector<const CaseSpec *> supported;
  for (const CaseSpec *spec : cases)
    if (!getUnsupportedReason(spec->requirements, session.target))
      supported.push_back(spec);
  if (supported.empty())
    return;
  // A case compiles its autotune batches on its share of the threads, so
  // that the threads in use stay about `threads`: all of them for one case,
  // one each when there are more cases than threads.
  unsigned workers =
      std::max<unsigned>(1, std::min<size_t>(threads, supported.size()));
  unsigned perCase = std::max(1u, threads / workers);
  llvm::StdThreadPool pool(llvm::hardware_concurrency(workers));
  for (const CaseSpec *spec : supported) {
    pool.async([&kernels, &session, seed, spec, perCase] {
      runtime::CompileThreadLimit limit(perCase);
      std::string id = spec->getId();
      CaseContext ctx(kernels, session.target, spec->file, deriveSeed(seed, id),
                      /*aheadOfTime=*/true);
      currentCase = id.c_str();
      spec->run(ctx);
      currentCase = nullptr;
    });
  }
  pool.wait();
}

llvm::StringRef getProgressTag(Status status) {
  switch (status) {
  case Status::Pass:
    return "PASS";
  case Status::Compiled:
    return "COMPILED";
  case Status::Fail:
    return "FAIL";
  case Status::NotSupported:
    return "UNSUPPORTED";
  case Status::ExpectedFailure:
    return "XFAIL";
  case Status::UnexpectedPass:
    return "XPASS";
  }
  return "";
}
} // namespace

int mlir::tessera::conformance::runConformance(int argc, char **argv) {
  llvm::StringRef program = argv[0];
  cl::OptionCategory category("Conformance options");
  SessionFlags flags(category);
  cl::opt<std::string> expectationsPath(
      "expectations",
      cl::desc("Expected failures (default: expectations/<backend>.txt of "
               "the conformance directory; a missing default file means "
               "none)"),
      cl::value_desc("file"), cl::cat(category));
  cl::opt<uint64_t> seedFlag(
      "seed",
      cl::desc("Seed of the random inputs (default: a fresh one, printed)"),
      cl::value_desc("n"), cl::cat(category));
  cl::opt<bool> list("list", cl::desc("List the cases and exit"),
                     cl::cat(category));
  cl::opt<unsigned> jobs(
      "jobs",
      cl::desc("Compile the cases' kernels first on this many threads, the "
               "cases of different kernel files at once, then run the cases "
               "in order (default: the machine's hardware threads; 1: each "
               "case compiles as it runs). Reports do not change"),
      cl::value_desc("n"), cl::cat(category));
  cl::alias jobsShort("j", cl::desc("Alias for --jobs"), cl::aliasopt(jobs),
                      cl::cat(category));
  cl::opt<bool> quiet("quiet",
                      cl::desc("No line per case, only the final report"),
                      cl::cat(category));
  cl::opt<bool> compileOnly(
      "compile-only",
      cl::desc("Compile every launch of each case to the loadable binary "
               "instead of running it: no device is used and nothing is "
               "checked; autotuned kernels compile the configs --configs "
               "selects (tune: all of them); needs --arch where the "
               "backend has no device"),
      cl::cat(category));
  cl::opt<std::string> junit(
      "junit",
      cl::desc("Also write the report as JUnit XML to this file ('-' for "
               "standard output), for CI systems"),
      cl::value_desc("file"), cl::cat(category));
  cl::list<std::string> compare(
      "compare",
      cl::desc("Compare two reports (--json files): list the cases whose "
               "status changed or whose checks or time moved by more than "
               "the tolerances, run nothing; exit code 1 when a change is "
               "for the worse"),
      cl::value_desc("before.json after.json"), cl::multi_val(2),
      cl::cat(category));
  cl::opt<double> errorTolerance(
      "error-tolerance",
      cl::desc("With --compare: list a check whose error moved by more than "
               "this share of its tolerance (default 0.25)"),
      cl::init(0.25), cl::value_desc("share"), cl::cat(category));
  cl::opt<double> timeTolerance(
      "time-tolerance",
      cl::desc("With --compare: also list a case whose time moved by more "
               "than this share of the earlier time (0.5: 50%)"),
      cl::value_desc("share"), cl::cat(category));
  if (!parseFlags(argc, argv, category,
                  "tessera conformance: runs the Triton tutorial kernels "
                  "(conformance/kernels) on a backend and compares every "
                  "output with a float64 host reference"))
    return 2;

  if (!compare.empty()) {
    CompareOptions options;
    options.errorTolerance = errorTolerance;
    if (timeTolerance.getNumOccurrences())
      options.timeTolerance = timeTolerance.getValue();
    return printComparison(compare[0], compare[1], options, llvm::outs(),
                           llvm::errs());
  }

  std::string conformanceDir = findConformanceDir(argv[0]);
  SuiteOptions suiteOptions;
  suiteOptions.kernelDir = flags.kernelsDir.empty()
                               ? conformanceDir + "/kernels"
                               : flags.kernelsDir.getValue();

  if (list) {
    // Listing opens no device: the config mode comes from the flags.
    std::string backend = runtime::resolveBackendRequest(flags.session.backend);
    llvm::Expected<ConfigMode> mode = getConfigMode(
        flags, backend == runtime::kFallbackBackend ? ConfigMode::Subset
                                                    : ConfigMode::Tune);
    if (!mode) {
      printError(program, mode.takeError());
      return 2;
    }
    suiteOptions.configMode =
        compileOnly ? getCompileOnlyConfigMode(*mode) : *mode;
    std::unique_ptr<Suite> suite = buildTutorialSuite(suiteOptions);
    std::vector<std::string> ids;
    for (const CaseSpec &spec : suite->getCases())
      ids.push_back(spec.getId());
    if (llvm::Error err = checkFiltersMatch(flags.kernelFilters, ids)) {
      printError(program, std::move(err));
      return 2;
    }
    for (const std::string &id : ids)
      if (matchesFilter(flags.kernelFilters, id))
        llvm::outs() << id << "\n";
    return 0;
  }

  // A file given explicitly is read first: its mistakes are reported even
  // where no backend opens.
  std::optional<Expectations> expectations;
  if (!expectationsPath.empty()) {
    llvm::Expected<Expectations> loaded =
        Expectations::load(expectationsPath, /*mayBeMissing=*/false);
    if (!loaded) {
      printError(program, loaded.takeError());
      return 2;
    }
    expectations = std::move(*loaded);
  }

  llvm::Expected<Session> session = openSession(flags, compileOnly);
  if (!session) {
    printError(program, session.takeError());
    return 2;
  }
  suiteOptions.configMode = session->configMode;

  if (!expectations) {
    llvm::Expected<Expectations> loaded = Expectations::load(
        conformanceDir + "/expectations/" + session->backend + ".txt",
        /*mayBeMissing=*/true);
    if (!loaded) {
      printError(program, loaded.takeError());
      return 2;
    }
    expectations = std::move(*loaded);
  }

  uint64_t seed =
      seedFlag.getNumOccurrences() ? seedFlag.getValue() : makeRandomSeed();
  std::unique_ptr<Suite> suite = buildTutorialSuite(suiteOptions);
  std::vector<const CaseSpec *> selected;
  std::vector<std::string> allIds;
  for (const CaseSpec &spec : suite->getCases()) {
    allIds.push_back(spec.getId());
    if (matchesFilter(flags.kernelFilters, spec.getId()))
      selected.push_back(&spec);
  }
  if (llvm::Error err = checkFiltersMatch(flags.kernelFilters, allIds)) {
    printError(program, std::move(err));
    return 2;
  }

  llvm::raw_ostream &os = llvm::outs();
  os << "tessera conformance: backend " << session->backend << ", arch "
     << session->arch << ", device "
     << (session->device.empty() ? "none" : session->device)
     << (session->driver.empty() ? "" : ", " + session->driver) << "\n";
  if (session->compileOnly)
    os << "compile-only: every launch is compiled for " << session->arch
       << ", nothing runs\n";
  os << "seed " << seed << " (rerun with --seed " << seed << ")\n"
     << "configs: " << stringifyConfigMode(session->configMode) << "\n"
     << "expectations: "
     << (expectations->getFilename().empty() ? "none"
                                             : expectations->getFilename())
     << "\n"
     << selected.size() << " of " << suite->getCases().size() << " cases\n\n";
  os.flush();

  const bool quietRun = quiet;
  const bool filtered = !flags.kernelFilters.empty();
  const std::string jsonPath =
      flags.json.empty() ? "conformance-report.json" : flags.json.getValue();
  const std::string junitPath = junit.getValue();
  llvm::sys::AddSignalHandler(reportCrashedCase, nullptr);
  KernelLibrary kernels(*session->runtime, *suite);
  RunReport report;
  report.backend = session->backend;
  report.arch = session->arch;
  report.device = session->device;
  report.driver = session->driver;
  report.pluginVersion = session->pluginVersion;
  report.target = session->target.str();
  report.seed = seed;
  report.configMode = stringifyConfigMode(session->configMode).str();
  report.expectationFile = expectations->getFilename().str();
  report.compileOnly = session->compileOnly;
  auto start = std::chrono::steady_clock::now();
  unsigned threads = jobs.getNumOccurrences()
                         ? jobs.getValue()
                         : llvm::hardware_concurrency().compute_thread_count();
  if (threads > 1 && selected.size() > 1) {
    compileAhead(selected, kernels, *session, seed, threads);
    if (!quietRun) {
      os << llvm::formatv("compiled ahead on {0} threads ({1:f1} s)\n\n",
                          threads, secondsSince(start));
      os.flush();
    }
  }
  for (size_t i = 0; i < selected.size(); ++i) {
    CaseReport result =
        runCase(*selected[i], kernels, *session, *expectations, seed);
    if (!quietRun) {
      os << llvm::formatv("{0,-11} {1} ({2:f2} s) [{3}/{4}]\n",
                          getProgressTag(result.status), result.id,
                          result.seconds, i + 1, selected.size());
      os.flush();
    }
    report.cases.push_back(std::move(result));
  }
  report.seconds = secondsSince(start);
  os << "\n";
  report.print(os);

  if (!filtered)
    for (const ExpectationEntry *stale : expectations->getUnmatched(allIds))
      llvm::errs() << expectations->getFilename() << ":" << stale->line
                   << ": warning: '" << stale->pattern << "' matches no case\n";

  if (llvm::Error err = writeJSONFile(report.toJSON(), jsonPath)) {
    printError(program, std::move(err));
    return 2;
  }
  if (jsonPath != "-")
    os << "report written to " << jsonPath << "\n";
  if (!junitPath.empty()) {
    if (llvm::Error err =
            writeReportFile(junitPath, [&](llvm::raw_ostream &out) {
              report.printJUnit(out);
            })) {
      printError(program, std::move(err));
      return 2;
    }
    if (junitPath != "-")
      os << "JUnit report written to " << junitPath << "\n";
  }
  return report.getSummary().succeeded() ? 0 : 1;
}
