#include "harness/fingerprint/host_key.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "core/errors.hpp"
#include "harness/fingerprint/machine_identity.hpp"

namespace fabricgate::fingerprint {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kKeyHexDigits = 64;

bool is_key_text(const std::string& s) {
  return s.size() == kKeyHexDigits && std::all_of(s.begin(), s.end(), [](unsigned char c) {
           return std::isdigit(c) != 0 || (c >= 'a' && c <= 'f');
         });
}

struct KeyRead {
  std::string key;  // set when usable
  std::string why;  // why not, when the file is there; "" when it is absent
  bool absent = false;
};

// Reads the key file without following a symlink, checking owner and mode on the open file.
KeyRead read_key_file(const fs::path& path) {
  KeyRead out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) {
      out.absent = true;
    } else if (errno == ELOOP) {
      out.why = "is a symbolic link (never followed)";
    } else {
      out.why = std::string("cannot be read (") + std::strerror(errno) + ")";
    }
    return out;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    out.why = std::string("cannot be examined (") + std::strerror(errno) + ")";
  } else if (!S_ISREG(st.st_mode)) {
    out.why = "is not a regular file";
  } else if (st.st_uid != ::geteuid()) {
    out.why = "belongs to another user (uid " + std::to_string(st.st_uid) + ")";
  } else if ((st.st_mode & 077) != 0) {
    out.why = "can be read or written by group or others (mode must be 0600)";
  } else {
    std::array<char, kKeyHexDigits + 2> buf{};
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    std::string text = n > 0 ? std::string(buf.data(), static_cast<std::size_t>(n)) : "";
    if (!text.empty() && text.back() == '\n') text.pop_back();
    if (is_key_text(text)) {
      out.key = text;
    } else {
      out.why = text.empty() ? "is empty (a creation cut short?)"
                             : "holds something other than 64 lower-case hex digits";
    }
  }
  ::close(fd);
  return out;
}

[[noreturn]] void refuse(const fs::path& path, const std::string& why) {
  throw InputError(path.string(), "",
                   "this runner's host key (64 hex digits, mode 0600, owned by the user who runs "
                   "fabricgate; it " +
                       why +
                       "). It seals the rows `run` records so that no one else can give this "
                       "runner a level: remove it and fabricgate makes a new one (this runner's "
                       "level in the store is then learnt again)");
}

}  // namespace

fs::path host_key_file() {
  if (const char* given = std::getenv("FABRICGATE_HOST_KEY_FILE"); given && *given) return given;
  const fs::path id_file = host_id_state_file();
  return id_file.empty() ? fs::path() : id_file.parent_path() / "host-key";
}

std::string require_host_key() {
  const fs::path path = host_key_file();
  if (path.empty()) {
    throw InputError("FABRICGATE_HOST_KEY_FILE", "(environment)",
                     "a place for this runner's host key (neither HOME nor XDG_STATE_HOME is set "
                     "and fabricgate does not run as root)");
  }
  KeyRead found = read_key_file(path);
  if (!found.key.empty()) return found.key;
  if (!found.absent) refuse(path, found.why);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  const std::string key = random_hex_digits(kKeyHexDigits / 2);
  const int fd = key.empty() ? -1
                             : ::open(path.c_str(),
                                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno == EEXIST) {  // another run made it first: take its key
      ::usleep(50 * 1000);
      found = read_key_file(path);
      if (!found.key.empty()) return found.key;
      refuse(path, found.why.empty() ? std::string("vanished") : found.why);
    }
    refuse(path, std::string("cannot be made (") + std::strerror(errno) + ")");
  }
  const std::string line = key + "\n";
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!written || !synced) {
    ::unlink(path.c_str());
    refuse(path, "could not be written whole");
  }
  return key;
}

std::optional<std::string> read_host_key() {
  const fs::path path = host_key_file();
  if (path.empty()) return std::nullopt;
  KeyRead found = read_key_file(path);
  if (found.key.empty()) return std::nullopt;
  return found.key;
}

}  // namespace fabricgate::fingerprint
