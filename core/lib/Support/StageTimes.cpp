//===- StageTimes.cpp - Wall time of each step of one compilation ---------===//
#include "tessera/Support/StageTimes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cassert>

using namespace mlir::tessera;

size_t StageTimes::getOrCreate(llvm::StringRef name, bool external) {
  std::string path =
      open.empty() ? name.str() : steps[open.back()].name + "/" + name.str();
  for (size_t i = 0, e = steps.size(); i < e; ++i)
    if (steps[i].name == path)
      return i;
  steps.push_back({std::move(path), unsigned(open.size()), 0, external});
  return steps.size() - 1;
}

void StageTimes::add(llvm::StringRef name, double seconds, bool external) {
  steps[getOrCreate(name, external)].seconds += seconds;
}

double StageTimes::lookup(llvm::StringRef name) const {
  for (const Step &step : steps)
    if (step.name == name)
      return step.seconds;
  return 0;
}

double StageTimes::getTotalSeconds() const {
  double total = 0;
  for (const Step &step : steps)
    if (step.depth == 0)
      total += step.seconds;
  return total;
}

double StageTimes::getOwnSeconds() const {
  double own = getTotalSeconds();
  for (const Step &step : steps)
    if (step.external)
      own -= step.seconds;
  return own;
}

void StageTimes::print(llvm::raw_ostream &os) const {
  auto label = [](const Step &step) {
    llvm::StringRef leaf = llvm::StringRef(step.name).rsplit('/').second;
    if (leaf.empty())
      leaf = step.name;
    return std::string(2 * step.depth, ' ') + leaf.str() +
           (step.external ? " (external)" : "");
  };
  size_t width = 5;
  for (const Step &step : steps)
    width = std::max(width, label(step).size());
  double total = getTotalSeconds();
  auto line = [&](llvm::StringRef name, double seconds) {
    os << "  " << name;
    os.indent(width - name.size());
    os << llvm::formatv(" {0,10:f2} ms {1,6:f1}%\n", seconds * 1e3,
                        total > 0 ? 100 * seconds / total : 0.0);
  };
  for (const Step &step : steps)
    line(label(step), step.seconds);
  line("total", total);
  if (llvm::any_of(steps, [](const Step &step) { return step.external; }))
    line("own", getOwnSeconds());
}

llvm::json::Value StageTimes::toJSON() const {
  llvm::json::Array array;
  for (const Step &step : steps)
    array.push_back(llvm::json::Object{{"name", step.name},
                                       {"seconds", step.seconds},
                                       {"external", step.external}});
  return llvm::json::Object{{"steps", std::move(array)},
                            {"total_seconds", getTotalSeconds()},
                            {"own_seconds", getOwnSeconds()}};
}

StageTimer::StageTimer(StageTimes *times, llvm::StringRef name, bool external)
    : times(times) {
  if (times) {
    index = times->getOrCreate(name, external);
    times->open.push_back(index);
  }
  start = std::chrono::steady_clock::now();
}

void StageTimer::stop() {
  if (!times)
    return;
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  assert(!times->open.empty() && times->open.back() == index &&
         "stage timers end in the reverse order they began");
  times->open.pop_back();
  times->steps[index].seconds += seconds;
  times = nullptr;
}
