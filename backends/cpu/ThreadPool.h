//===- ThreadPool.h - Workers running the programs of launches --*- C++ -*-===//
//
// Launches on the host run their program instances on threads that live
// across launches. Their hand-off is lock-free: a launch of one program on
// the development VM cost 75-85 us when every launch took a mutex, woke
// every sleeping worker and waited for each to check in (three or four
// thread wake-ups on a virtual CPU), most of it in futex calls.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_CPU_THREADPOOL_H
#define TESSERA_BACKENDS_CPU_THREADPOOL_H

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <pthread.h>
#include <vector>

namespace mlir::tessera::cpu {

/// Threads that run the numbered tasks of one job at a time while the
/// caller waits. A job is published without a lock (a generation counter);
/// an idle worker polls for the next one for a while, then sleeps on the
/// counter. The caller may take tasks itself, and waits only for the
/// workers that joined the job: a job that the caller and the polling
/// workers can run neither wakes a sleeping worker nor waits for one, so a
/// launch of a small grid costs microseconds instead of a thread's wake-up
/// (which took milliseconds at times on the development VM).
class ThreadPool {
public:
  /// Starts `numThreads` workers with `stackBytes` of stack each; the first
  /// `pollers` of them poll between jobs before sleeping.
  ThreadPool(unsigned numThreads, unsigned pollers, size_t stackBytes);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// The number of workers asked for.
  unsigned size() const { return requested; }

  /// Workers asleep now (waiting for a job that wakes them).
  unsigned sleepingWorkers() const { return sleeping.load(); }

  /// Runs task(i) for i in [0, count), taken in increasing order, each to
  /// its end on one thread; stops taking new ones once `stop` is set.
  /// With `callerJoins`, the calling thread takes tasks too and one fewer
  /// worker is woken (the caller's stack must hold a task's frame).
  /// Returns when every task taken has finished; their writes are visible
  /// to the caller then. Idle workers poll for `spin` after this job
  /// before sleeping. One caller at a time.
  void run(uint64_t count, const std::function<void(uint64_t)> &task,
           const std::atomic<bool> &stop, std::chrono::microseconds spin,
           bool callerJoins);

private:
  struct Job {
    const std::function<void(uint64_t)> *task = nullptr;
    const std::atomic<bool> *stop = nullptr;
    uint64_t count = 0;
  };

  static void *main(void *self);
  void work(unsigned index);
  /// Polls (yielding the core) until a job other than `seen` is published
  /// or the spin time has passed.
  void pollWhileIdle(uint32_t seen);
  /// Restricts the workers to the CPUs the caller may use but its current
  /// one while it joins jobs (all of them otherwise), when that changed.
  void keepWorkersOffCallersCpu(bool callerJoins);
  /// Runs tasks of the current job until none is left or it stops (on a
  /// worker that joined it, or on the caller).
  void runTasks();
  /// Marks this worker out of the job and wakes the caller.
  void leave();
  /// Waits (polling for at most `poll`, then sleeping) until `done()`; any
  /// change that can make it true is followed by a departure.
  void waitForDepartures(const std::function<bool()> &done,
                         std::chrono::microseconds poll);

  const unsigned requested;
  const unsigned pollers;
  std::vector<pthread_t> threads;

  /// The current job: written by the caller before it publishes a
  /// generation, read by workers only while they count as active in it.
  Job job;
  std::atomic<uint64_t> next{0};
  /// Bumped to publish a job (and to shut down); idle workers sleep on it.
  std::atomic<uint32_t> generation{0};
  /// Whether the current job still admits workers.
  std::atomic<bool> open{false};
  /// Workers inside the current job: the caller returns only at zero.
  std::atomic<unsigned> active{0};
  /// Bumped whenever a worker leaves a job; the caller sleeps on it.
  std::atomic<uint32_t> departures{0};
  /// Workers asleep on `generation`.
  std::atomic<unsigned> sleeping{0};
  std::atomic<unsigned> started{0};
  std::atomic<bool> shutdown{false};
  /// The CPU the workers are kept off (-1: none); the caller's only.
  int excludedCpu = -1;
  /// How long an idle worker polls, in microseconds (from the last run).
  std::atomic<int64_t> spinMicroseconds{0};
};

} // namespace mlir::tessera::cpu

#endif // TESSERA_BACKENDS_CPU_THREADPOOL_H
