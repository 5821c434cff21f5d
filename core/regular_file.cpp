#include "core/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace fabricgate {

namespace {

// Closes the descriptor on every way out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (reading it could wait forever for a writer)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

}  // namespace

RegularFileText read_regular_file(const std::filesystem::path& path, std::size_t max_bytes) {
  RegularFileText out;
  const Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (f.fd < 0) {
    out.error = std::string("cannot open file (") + std::strerror(errno) + ")";
    return out;
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) {
    out.error = std::string("cannot stat file (") + std::strerror(errno) + ")";
    return out;
  }
  if (!S_ISREG(st.st_mode)) {
    out.error = std::string("not a regular file: ") + kind_of(st.st_mode);
    return out;
  }
  // A regular file never blocks; clearing O_NONBLOCK keeps reads plain on every file system.
  const int flags = ::fcntl(f.fd, F_GETFL);
  if (flags >= 0) ::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK);
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      out.error = std::string("read error (") + std::strerror(errno) + ")";
      out.text.clear();
      return out;
    }
    if (n == 0) break;
    if (out.text.size() + static_cast<std::size_t>(n) > max_bytes) {
      out.error = "larger than " + std::to_string(max_bytes) + " bytes";
      out.text.clear();
      return out;
    }
    out.text.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

}  // namespace fabricgate
