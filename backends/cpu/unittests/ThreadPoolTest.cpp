//===- ThreadPoolTest.cpp - The workers that run launches' instances ------===//
#include "ThreadPool.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <sched.h>
#include <thread>
#include <vector>

using namespace mlir::tessera::cpu;

namespace {

constexpr size_t kStack = 1 << 20;
constexpr std::chrono::microseconds kNoSpin(0);

/// Waits (at most 10 s) until all of `pool`'s workers sleep.
bool waitUntilAsleep(const ThreadPool &pool) {
  auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (pool.sleepingWorkers() != pool.size())
    if (std::chrono::steady_clock::now() > limit)
      return false;
    else
      std::this_thread::sleep_for(std::chrono::microseconds(100));
  return true;
}

TEST(CpuThreadPool, RunsEveryTaskOnceInIncreasingOrderPerThread) {
  for (unsigned size : {1u, 2u, 8u})
    for (unsigned pollers : {0u, 1u})
      for (bool callerJoins : {false, true})
        for (auto spin : {kNoSpin, std::chrono::microseconds(1000)}) {
          ThreadPool pool(size, std::min(pollers, size), kStack);
          for (uint64_t count : {1u, 3u, 7u, 100u, 1000u}) {
            std::vector<std::atomic<int>> runs(count);
            std::mutex mutex;
            std::map<std::thread::id, std::vector<uint64_t>> order;
            std::atomic<bool> stop{false};
            pool.run(
                count,
                [&](uint64_t i) {
                  runs[i].fetch_add(1);
                  std::lock_guard<std::mutex> lock(mutex);
                  order[std::this_thread::get_id()].push_back(i);
                },
                stop, spin, callerJoins);
            for (uint64_t i = 0; i < count; ++i)
              ASSERT_EQ(runs[i].load(), 1)
                  << "task " << i << " of " << count << ", " << size
                  << " workers, " << pollers << " polling, caller joins "
                  << callerJoins << ", spin " << spin.count();
            for (auto &[thread, tasks] : order)
              EXPECT_TRUE(std::is_sorted(tasks.begin(), tasks.end()));
            EXPECT_LE(order.size(), size + (callerJoins ? 1u : 0u));
          }
        }
}

TEST(CpuThreadPool, CallerTakesTasksOnlyWhenItJoins) {
  ThreadPool pool(2, 0, kStack);
  std::atomic<bool> stop{false};
  for (bool callerJoins : {false, true}) {
    // Sleeping workers are woken only for what the caller cannot run: a
    // one-task job runs on the caller when it joins, else on a worker.
    ASSERT_TRUE(waitUntilAsleep(pool));
    std::thread::id ranOn;
    pool.run(
        1, [&](uint64_t) { ranOn = std::this_thread::get_id(); }, stop, kNoSpin,
        callerJoins);
    EXPECT_EQ(ranOn == std::this_thread::get_id(), callerJoins);
  }
  // A job of more tasks than the caller can take at once still gets the
  // workers it needs: two tasks that each wait for the other to start.
  ASSERT_TRUE(waitUntilAsleep(pool));
  std::atomic<int> startedTasks{0};
  std::atomic<bool> together{true};
  pool.run(
      2,
      [&](uint64_t) {
        startedTasks.fetch_add(1);
        auto limit =
            std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (startedTasks.load() < 2)
          if (std::chrono::steady_clock::now() > limit) {
            together = false;
            return;
          }
      },
      stop, kNoSpin, /*callerJoins=*/true);
  EXPECT_TRUE(together.load());
}

TEST(CpuThreadPool, WorkersLeaveTheCallersCpuWhileItJoins) {
  cpu_set_t callers;
  ASSERT_EQ(sched_getaffinity(0, sizeof(callers), &callers), 0);
  int allowed = CPU_COUNT(&callers);
  if (allowed < 2)
    GTEST_SKIP() << "the caller may use one CPU only";
  ThreadPool pool(2, 1, kStack);
  std::atomic<bool> stop{false};
  const std::thread::id caller = std::this_thread::get_id();
  for (bool callerJoins : {true, false, true}) {
    // How many CPUs each task's thread may use: the caller's mask, one CPU
    // fewer for the workers of a job the caller joins.
    std::mutex mutex;
    std::vector<std::pair<bool, int>> seen;
    pool.run(
        64,
        [&](uint64_t) {
          cpu_set_t mask;
          int count = sched_getaffinity(0, sizeof(mask), &mask) == 0
                          ? CPU_COUNT(&mask)
                          : -1;
          std::lock_guard<std::mutex> lock(mutex);
          seen.push_back({std::this_thread::get_id() == caller, count});
          std::this_thread::sleep_for(std::chrono::microseconds(20));
        },
        stop, kNoSpin, callerJoins);
    for (auto [onCaller, count] : seen)
      EXPECT_EQ(count, onCaller || !callerJoins ? allowed : allowed - 1)
          << (onCaller ? "caller" : "worker") << ", caller joins "
          << callerJoins;
  }
}

TEST(CpuThreadPool, StopEndsTheJobAfterTheTasksRunning) {
  for (bool callerJoins : {false, true}) {
    ThreadPool pool(4, 1, kStack);
    std::atomic<bool> stop{false};
    std::atomic<int> running{0}, ran{0};
    pool.run(
        100000,
        [&](uint64_t i) {
          running.fetch_add(1);
          if (i == 10)
            stop.store(true);
          std::this_thread::sleep_for(std::chrono::microseconds(50));
          ran.fetch_add(1);
          running.fetch_sub(1);
        },
        stop, kNoSpin, callerJoins);
    // Every task that started has finished when run() returns; the workers
    // took at most one more task each after the stop.
    EXPECT_EQ(running.load(), 0);
    EXPECT_GE(ran.load(), 11);
    EXPECT_LE(ran.load(), 11 + 5);
  }
}

TEST(CpuThreadPool, ManySmallJobsWithSleepingAndPollingWorkers) {
  // Lost wake-ups would hang here (the test's timeout fails it).
  for (unsigned pollers : {0u, 1u}) {
    ThreadPool pool(2, pollers, kStack);
    std::atomic<bool> stop{false};
    uint64_t sum = 0;
    for (int i = 0; i < 20000; ++i) {
      std::atomic<uint64_t> part{0};
      uint64_t count = 1 + i % 3;
      pool.run(
          count, [&](uint64_t t) { part.fetch_add(t + 1); }, stop,
          i % 2 ? kNoSpin : std::chrono::microseconds(200), i % 5 == 0);
      sum += part.load();
    }
    uint64_t expected = 0;
    for (int i = 0; i < 20000; ++i) {
      uint64_t count = 1 + i % 3;
      expected += count * (count + 1) / 2;
    }
    EXPECT_EQ(sum, expected) << pollers << " polling";
  }
}

TEST(CpuThreadPool, ShutsDownWhetherWorkersPollOrSleep) {
  for (int i = 0; i < 50; ++i) {
    ThreadPool pool(3, 2, kStack);
    if (i % 2) {
      std::atomic<bool> stop{false};
      pool.run(
          4, [](uint64_t) {}, stop, std::chrono::microseconds(100000), false);
    }
  }
}

} // namespace
