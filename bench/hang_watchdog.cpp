#include "bench/hang_watchdog.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdio>

namespace fabricgate::bench {

HangWatchdog::~HangWatchdog() { disarm(); }

void HangWatchdog::arm(const std::string& key, double grace_seconds) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (thread_.joinable() || disarmed_) return;
  const auto grace = std::chrono::duration<double>(grace_seconds);
  thread_ = std::thread([this, key, grace, grace_seconds] {
    std::unique_lock<std::mutex> wait_lock(mutex_);
    if (wake_.wait_for(wait_lock, grace, [this] { return disarmed_; })) return;
    std::fprintf(
        stderr,
        "fabricgate-bench: hung: %s; the ranks did not agree on it within %g s after the abort "
        "(another rank is stuck where it cannot join): MPI_Abort\n",
        key.c_str(), grace_seconds);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
  });
}

void HangWatchdog::disarm() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    disarmed_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace fabricgate::bench
