#include "harness/counters/sysfs_value.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace fabricgate::counters {

std::variant<std::uint64_t, std::string> read_counter_file(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::string(std::strerror(errno));
  std::array<char, 64> buffer{};
  const ssize_t n = ::read(fd, buffer.data(), buffer.size() - 1);
  const int read_errno = errno;
  ::close(fd);
  if (n < 0) return std::string(std::strerror(read_errno));
  std::string text(buffer.data(), static_cast<std::size_t>(n));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return "not a number: \"" + text.substr(0, 24) + "\"";
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (errno == ERANGE) return "over 2^64: \"" + text + "\"";
  return static_cast<std::uint64_t>(v);
}

}  // namespace fabricgate::counters
