#include "harness/launch/run_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
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

// A lock file is empty or holds the pid of the run that held it last ("1234\n").
bool holds_only_a_pid(int fd, off_t size) {
  if (size == 0) return true;
  if (size > 32) return false;
  const std::string s = read_holder(fd);
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// Opens the lock without following a symlink and refuses anything but a plain lock file of this
// user's: `--lock` names a path the run writes its pid into, and the default lives in /tmp, where
// another local user can plant a link to a file of ours (a baseline, a root-owned file) or a file
// of theirs (issue 52: `--lock baselines/.../cpu.json` once truncated a 2 MB baseline).
int open_lock_file(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0 && errno == ELOOP)
    throw InputError(file.string(), "--lock",
                     "a plain lock file, not a symbolic link (nothing was written through it)");
  if (fd < 0)
    throw InfraError("cannot open lock file " + file.string() + ": " + std::strerror(errno));
  struct stat st {};
  std::string refusal;
  if (::fstat(fd, &st) != 0) {
    refusal = std::string("cannot stat it: ") + std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    refusal = "a plain lock file (this is not a regular file)";
  } else if (st.st_uid != ::geteuid()) {
    refusal = "a lock file owned by this user (uid " + std::to_string(::geteuid()) +
              "); this one belongs to uid " + std::to_string(st.st_uid) +
              ": remove it or choose another --lock";
  } else if (st.st_nlink != 1) {
    refusal = "a lock file of its own (this one has " + std::to_string(st.st_nlink) +
              " hard links: writing the pid would change another file)";
  } else if (!holds_only_a_pid(fd, st.st_size)) {
    refusal = "an empty file or one holding a pid (this one holds " + std::to_string(st.st_size) +
              " bytes of something else: it is not a lock file, and nothing was written to it)";
  }
  if (!refusal.empty()) {
    ::close(fd);
    throw InputError(file.string(), "--lock", refusal);
  }
  return fd;
}

}  // namespace

RunLock::RunLock(const std::filesystem::path& file, std::chrono::seconds wait) {
  if (!file.parent_path().empty()) std::filesystem::create_directories(file.parent_path());
  fd_ = open_lock_file(file);
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
