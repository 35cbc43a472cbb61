//===- Tuning.cpp - TuningRecords and do_bench over the runtime -----------===//
//
// The Python layer's @triton.autotune keeps its configs and hooks in Python
// and asks the runtime's Autotuner which config a key chose, in this process
// or an earlier one (the TuningStore the CLI uses too), and to remember a
// choice, timing each config with a Python callback. do_bench is the
// runtime's benchmark() over a Python callable.
//
//===----------------------------------------------------------------------===//
#include "Binding.h"

#include "tessera/Runtime/Autotuner.h"
#include "tessera/Runtime/Benchmark.h"
#include "tessera/Runtime/Device.h"
#include "tessera/Runtime/TunedKernel.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>

using namespace tessera::python;
using namespace mlir::tessera;

namespace {
/// Calls Python from inside the runtime, which reports failures as
/// llvm::Errors: an exception becomes the error's text, except that an
/// interrupt (KeyboardInterrupt, SystemExit) stops every later call and is
/// raised again once the runtime returned.
class PythonCallGuard {
public:
  template <typename T, typename Fn> llvm::Expected<T> call(Fn &&fn) {
    if (interrupt)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "interrupted");
    try {
      return fn();
    } catch (nb::python_error &e) {
      if (e.matches(PyExc_KeyboardInterrupt) || e.matches(PyExc_SystemExit)) {
        interrupt.emplace(std::move(e));
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "interrupted");
      }
      if (!first)
        first.emplace(e);
      return llvm::createStringError(llvm::inconvertibleErrorCode(), e.what());
    } catch (std::exception &e) {
      return llvm::createStringError(llvm::inconvertibleErrorCode(), e.what());
    }
  }
  /// Raises the interrupt a call caught, if any.
  void rethrow() {
    if (interrupt) {
      nb::python_error e = std::move(*interrupt);
      interrupt.reset();
      throw e;
    }
  }
  /// Raises the first Python exception a call caught, if any.
  void rethrowFirst() {
    if (first) {
      nb::python_error e = std::move(*first);
      first.reset();
      throw e;
    }
  }

private:
  std::optional<nb::python_error> interrupt;
  std::optional<nb::python_error> first;
};

class PyTuningRecords {
public:
  PyTuningRecords(nb::object session, const PyKernel &kernel,
                  std::vector<std::string> configs)
      : session(std::move(session)) {
    rt::Runtime &runtime = kernel.getKernel().getRuntime();
    tuner = std::make_unique<rt::Autotuner>(
        std::move(configs), runtime.getTuningStore(),
        rt::TunedKernel::getTuningScope(kernel.getKernel()));
  }

  std::optional<unsigned> recall(const std::string &key) {
    return tuner->recall(key);
  }

  unsigned select(const std::string &key, const std::vector<unsigned> &allowed,
                  nb::callable measure) {
    PythonCallGuard guard;
    llvm::Expected<unsigned> best = tuner->select(
        key, allowed, [&](unsigned index) -> llvm::Expected<double> {
          return guard.call<double>(
              [&] { return nb::cast<double>(measure(index)); });
        });
    guard.rethrow();
    // Every config failed: the first Python exception, as measure raised it.
    if (!best)
      guard.rethrowFirst();
    return unwrap(std::move(best));
  }

  std::vector<double> getLastTimings() const { return tuner->getLastTimings(); }
  std::vector<std::string> getConfigs() const {
    llvm::ArrayRef<std::string> names = tuner->getConfigNames();
    return std::vector<std::string>(names.begin(), names.end());
  }

private:
  nb::object session;
  std::unique_ptr<rt::Autotuner> tuner;
};

nb::object doBench(nb::callable fn, double warmup, double rep,
                   std::optional<std::vector<double>> quantiles,
                   const std::string &returnMode, nb::object session) {
  static const char *const kModes[] = {"min", "max", "mean", "median", "all"};
  if (llvm::find(kModes, returnMode) == std::end(kModes))
    throw nb::value_error(("return_mode must be min, max, mean, median or "
                           "all, not '" +
                           returnMode + "'")
                              .c_str());
  if (session.is_none())
    throw nb::value_error("do_bench needs the session whose device runs fn");
  PySession &s = nb::cast<PySession &>(session);
  rt::Device &device = unwrap(s.getRuntime().requireDevice());
  rt::BenchOptions options;
  options.warmupMs = warmup;
  options.repMs = rep;
  options.quantiles = quantiles.value_or(std::vector<double>());
  for (double q : options.quantiles)
    if (!(q >= 0 && q <= 1))
      throw nb::value_error("quantiles must lie in [0, 1]");
  PythonCallGuard guard;
  llvm::Expected<rt::BenchStats> stats = rt::benchmark(
      device.getDriver(), device.getIndex(),
      [&]() -> llvm::Error {
        llvm::Expected<bool> ran = guard.call<bool>([&] {
          fn();
          return true;
        });
        return ran ? llvm::Error::success() : ran.takeError();
      },
      options);
  guard.rethrow();
  // What fn raised, as it raised it.
  if (!stats)
    guard.rethrowFirst();
  rt::BenchStats result = unwrap(std::move(stats));
  if (quantiles) {
    if (result.quantiles.size() == 1)
      return nb::float_(result.quantiles[0]);
    return nb::cast(result.quantiles);
  }
  if (returnMode == "min")
    return nb::float_(result.min);
  if (returnMode == "max")
    return nb::float_(result.max);
  if (returnMode == "median")
    return nb::float_(result.median);
  if (returnMode == "all")
    return nb::cast(result.samples);
  return nb::float_(result.mean);
}
} // namespace

void tessera::python::bindTuning(nb::module_ &m) {
  nb::class_<PyTuningRecords>(
      m, "TuningRecords",
      "The runtime's autotuning memory (Autotuner.h, TuningStore.h) for one "
      "kernel and its configs, known by their text: in this process and on "
      "disk, shared with the CLI.")
      .def(
          "__init__",
          [](PyTuningRecords *self, nb::object session, const PyKernel &kernel,
             std::vector<std::string> configs) {
            new (self)
                PyTuningRecords(std::move(session), kernel, std::move(configs));
          },
          nb::arg("session"), nb::arg("kernel"), nb::arg("configs"))
      .def("recall", &PyTuningRecords::recall, nb::arg("key"),
           "The config index chosen for `key` in this process, else on disk; "
           "None when it must be measured.")
      .def("select", &PyTuningRecords::select, nb::arg("key"),
           nb::arg("allowed"), nb::arg("measure"),
           "The best config index for `key`: recalled, else each allowed "
           "index (all when empty) timed by measure(index) -> ms, the fastest "
           "remembered. A config whose measure raises loses; when all do, "
           "the first exception is raised again.")
      .def_prop_ro("last_timings", &PyTuningRecords::getLastTimings,
                   "Milliseconds per config of the last measurement (NaN "
                   "where it failed or was not timed).")
      .def_prop_ro("configs", &PyTuningRecords::getConfigs);

  m.def("do_bench", &doBench, nb::arg("fn"), nb::arg("warmup") = 25.0,
        nb::arg("rep") = 100.0, nb::arg("quantiles") = nb::none(),
        nb::arg("return_mode") = "mean", nb::arg("session") = nb::none(),
        "Times fn() like triton.testing.do_bench with the runtime's "
        "benchmark(): warm-up and timed runs sized by the budgets (ms), the "
        "last-level cache flushed before each run, timed by the session's "
        "driver (device events on GPUs, on the session's stream). Returns "
        "the quantiles asked for, else the statistic return_mode names "
        "(all: every sample).");
}
