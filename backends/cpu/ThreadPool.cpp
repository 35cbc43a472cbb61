//===- ThreadPool.cpp - Workers running the programs of launches ----------===//
//
// The protocol, all atomics sequentially consistent where two threads must
// see each other's step (each pair below is one write and one read on
// either side, so at least one side sees the other's write):
//
// - run() writes the job, opens it and bumps `generation`, then reads
//   `sleeping`; a worker about to sleep counts itself in `sleeping`, then
//   sleeps only while `generation` is unchanged. So either the caller wakes
//   it or it sees the job.
// - A worker joins by counting itself `active`, then checks that the job is
//   still open and current; the caller closes the job, then waits for
//   `active` to be zero. So a worker either joined before the close (and the
//   caller waits for it) or sees the close and touches nothing of the job,
//   whose task and stop flag live in the caller's frame.
// - Whatever lets the caller stop waiting (tasks all taken, the stop flag,
//   the last worker out) is followed by a bump of `departures`, which the
//   caller reads before checking and sleeps on.
//
// While the caller takes tasks, the workers run on the other CPUs of its
// affinity mask (set again only when the caller's CPU changes): a woken
// worker is often placed on the waker's CPU and preempts it, and a virtual
// CPU that sat idle may not take either thread for milliseconds. On the
// development VM, after 100 ms idle, 9 of 20 launches of the 512^3 fp32
// matmul ran mostly on one thread (2.8-4.4 ms against 1.4-2.5 ms); with
// the workers kept off the caller's CPU, none of 20.
//
//===----------------------------------------------------------------------===//
#include "ThreadPool.h"

#include <algorithm>
#include <sched.h>

using namespace mlir::tessera::cpu;

namespace {
/// How long the caller polls for the end of a job before it sleeps: most
/// small grids finish within it, and a sleeping caller takes a wake-up
/// (tens of microseconds on a virtual CPU) to return.
constexpr std::chrono::microseconds kCallerPoll(50);

} // namespace

ThreadPool::ThreadPool(unsigned numThreads, unsigned pollers, size_t stackBytes)
    : requested(numThreads), pollers(pollers) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stackBytes);
  for (unsigned i = 0; i < numThreads; ++i) {
    pthread_t thread;
    if (pthread_create(&thread, &attr, &ThreadPool::main, this) == 0)
      threads.push_back(thread);
  }
  pthread_attr_destroy(&attr);
}

ThreadPool::~ThreadPool() {
  shutdown.store(true);
  generation.fetch_add(1);
  generation.notify_all();
  for (pthread_t thread : threads)
    pthread_join(thread, nullptr);
}

void *ThreadPool::main(void *self) {
  auto *pool = static_cast<ThreadPool *>(self);
  pool->work(pool->started.fetch_add(1));
  return nullptr;
}

void ThreadPool::run(uint64_t count, const std::function<void(uint64_t)> &task,
                     const std::atomic<bool> &stop,
                     std::chrono::microseconds spin, bool callerJoins) {
  if (count == 0)
    return;
  if (threads.empty()) {
    // No thread could be created: run here, in the same order.
    for (uint64_t i = 0; i < count && !stop.load(); ++i)
      task(i);
    return;
  }
  keepWorkersOffCallersCpu(callerJoins);
  spinMicroseconds.store(spin.count(), std::memory_order_relaxed);
  job = {&task, &stop, count};
  next.store(0, std::memory_order_relaxed);
  open.store(true);
  generation.fetch_add(1);
  // One thread per task up to the pool's size, the caller among them when
  // it joins; workers not asleep see the job without being woken.
  uint64_t wanted =
      std::min<uint64_t>(count, threads.size()) - (callerJoins ? 1 : 0);
  uint64_t awake = threads.size() - sleeping.load();
  std::chrono::microseconds poll = std::min(spin, kCallerPoll);
  if (wanted > awake) {
    for (uint64_t i = awake; i < wanted; ++i)
      generation.notify_one();
    // A worker woken here may need the caller's core once it waits.
    poll = std::chrono::microseconds(0);
  }
  if (callerJoins)
    runTasks();
  waitForDepartures(
      [&] {
        return (next.load() >= count || stop.load()) && active.load() == 0;
      },
      poll);
  open.store(false);
  // A worker that joined between the check and the close finds nothing
  // left; it still reads the job until it leaves.
  waitForDepartures([&] { return active.load() == 0; }, poll);
}

void ThreadPool::keepWorkersOffCallersCpu(bool callerJoins) {
  int cpu = callerJoins ? sched_getcpu() : -1;
  if (cpu == excludedCpu)
    return;
  cpu_set_t mask;
  if (sched_getaffinity(0, sizeof(mask), &mask) != 0)
    return;
  if (cpu >= 0 && CPU_ISSET(cpu, &mask) && CPU_COUNT(&mask) > 1)
    CPU_CLR(cpu, &mask);
  else
    cpu = -1;
  for (pthread_t thread : threads)
    pthread_setaffinity_np(thread, sizeof(mask), &mask);
  excludedCpu = cpu;
}

void ThreadPool::waitForDepartures(const std::function<bool()> &done,
                                   std::chrono::microseconds poll) {
  auto start = std::chrono::steady_clock::now();
  while (!done()) {
    if (std::chrono::steady_clock::now() - start < poll) {
      sched_yield();
      continue;
    }
    uint32_t seen = departures.load();
    if (done())
      return;
    departures.wait(seen);
  }
}

void ThreadPool::work(unsigned index) {
  const bool polls = index < pollers;
  uint32_t seen = 0;
  while (true) {
    uint32_t current = generation.load();
    if (current == seen) {
      if (polls)
        pollWhileIdle(seen);
      sleeping.fetch_add(1);
      generation.wait(seen);
      sleeping.fetch_sub(1);
      continue;
    }
    if (shutdown.load())
      return;
    seen = current;
    active.fetch_add(1);
    if (open.load() && generation.load() == current)
      runTasks();
    leave();
  }
}

void ThreadPool::pollWhileIdle(uint32_t seen) {
  auto limit = std::chrono::microseconds(
      spinMicroseconds.load(std::memory_order_relaxed));
  auto start = std::chrono::steady_clock::now();
  while (generation.load(std::memory_order_acquire) == seen &&
         std::chrono::steady_clock::now() - start < limit)
    sched_yield();
}

void ThreadPool::runTasks() {
  const Job current = job;
  while (!current.stop->load(std::memory_order_relaxed)) {
    uint64_t i = next.fetch_add(1, std::memory_order_relaxed);
    if (i >= current.count)
      break;
    (*current.task)(i);
  }
}

void ThreadPool::leave() {
  active.fetch_sub(1);
  departures.fetch_add(1);
  departures.notify_all();
}
