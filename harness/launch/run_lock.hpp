#pragma once
// One measurement at a time per runner: two runs on the same GPUs would measure each other.
// An flock()ed file (released by the kernel if we crash); the second run waits up to a timeout.
#include <chrono>
#include <filesystem>

namespace fabricgate::launch {

class RunLock {
 public:
  // Throws InfraError naming the lock file and the holder's pid when not acquired in time.
  RunLock(const std::filesystem::path& file, std::chrono::seconds wait);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace fabricgate::launch
