#include "harness/launch/run_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "core/errors.hpp"

namespace fabricgate::launch {

namespace {
std::string read_holder(int fd) {
  char buf[64] = {0};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string s = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}
}  // namespace

RunLock::RunLock(const std::filesystem::path& file, std::chrono::seconds wait) {
  if (!file.parent_path().empty()) std::filesystem::create_directories(file.parent_path());
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw InfraError("cannot open lock file " + file.string() + ": " + std::strerror(errno));
  const auto deadline = std::chrono::steady_clock::now() + wait;
  bool announced = false;
  while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      const std::string why = std::strerror(errno);
      ::close(fd_);
      throw InfraError("cannot lock " + file.string() + ": " + why);
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      const std::string holder = read_holder(fd_);
      ::close(fd_);
      throw InfraError("another fabricgate run holds " + file.string() +
                       (holder.empty() ? "" : " (pid " + holder + ")") + "; waited " +
                       std::to_string(wait.count()) +
                       " s. Runs on one runner must not overlap: they "
                       "would measure each other. Use --lock-timeout to wait longer.");
    }
    if (!announced) {
      std::fprintf(stderr, "fabricgate: waiting for another run to release %s\n", file.c_str());
      announced = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) == 0) {
    [[maybe_unused]] const ssize_t n = ::pwrite(fd_, pid.data(), pid.size(), 0);
  }
}

RunLock::~RunLock() {
  if (fd_ >= 0) {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
}

}  // namespace fabricgate::launch
