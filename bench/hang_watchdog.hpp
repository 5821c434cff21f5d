#pragma once
// The bench's last resort after a hang. A rank whose NCCL work missed its deadline has
// aborted it and goes on to agree with the other ranks that the benchmark hung. If another rank is
// stuck where it cannot join that agreement (host code, a blocking call), the agreement never
// completes: the watchdog, armed at the local hang, then ends the whole job with MPI_Abort (exit 3)
// once the grace period is over. Disarmed (and joined) when the bench finishes normally.
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace fabricgate::bench {

class HangWatchdog {
 public:
  HangWatchdog() = default;
  ~HangWatchdog();
  HangWatchdog(const HangWatchdog&) = delete;
  HangWatchdog& operator=(const HangWatchdog&) = delete;

  // Starts the countdown (once; later calls are ignored): MPI_Abort after `grace_seconds`.
  void arm(const std::string& key, double grace_seconds);
  void disarm();

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool disarmed_ = false;
  std::thread thread_;
};

}  // namespace fabricgate::bench
