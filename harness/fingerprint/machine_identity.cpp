#include "harness/fingerprint/machine_identity.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <vector>

#include "core/errors.hpp"
#include "harness/fingerprint/text_files.hpp"
#include "harness/model/host_identity.hpp"

namespace fabricgate::fingerprint {

namespace fs = std::filesystem;

namespace {

bool is_hex(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool safe_runner_name(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isalnum(c) != 0 || c == '.' || c == '_' || c == '-';
  });
}

// Reads at most 64 bytes of a regular file, never through a symlink.
std::string read_small_file(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return "";
  struct stat st {};
  std::string out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    std::array<char, 64> buf{};
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n > 0) out.assign(buf.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back()))) out.pop_back();
  return out;
}

// The state file's id, created when absent. "" when it can be neither read nor made.
std::string state_file_id(const fs::path& path, bool may_create) {
  std::string text = read_small_file(path);
  if (text.size() == 32 && is_hex(text)) return lower(text);
  if (!text.empty() || !may_create) return "";  // something else is there: leave it alone
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  const std::string id = random_hex_digits(16);
  if (id.empty()) return "";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    // Another process made it first: take its id.
    text = read_small_file(path);
    return text.size() == 32 && is_hex(text) ? lower(text) : "";
  }
  const std::string line = id + "\n";
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  ::close(fd);
  return written ? id : "";
}

}  // namespace

std::string random_hex_digits(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  if (::getrandom(raw.data(), raw.size(), 0) != static_cast<ssize_t>(raw.size())) return "";
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char b : raw) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

fs::path host_id_state_file() {
  if (const char* given = std::getenv("FABRICGATE_HOST_ID_FILE"); given && *given) return given;
  if (::geteuid() == 0) return "/var/lib/fabricgate/host-id";
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state)
    return fs::path(state) / "fabricgate" / "host-id";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".local" / "state" / "fabricgate" / "host-id";
  return "";
}

namespace {

// Why the id file at `path` cannot name this runner; "" when it can, or when there is none yet.
std::string unusable_state_file(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0)
    return errno == ENOENT ? "" : std::string("cannot be examined (") + std::strerror(errno) + ")";
  if (S_ISLNK(st.st_mode)) return "is a symbolic link (never followed)";
  if (S_ISDIR(st.st_mode)) return "is a directory";
  if (!S_ISREG(st.st_mode)) return "is not a regular file";
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::string("cannot be read (") + std::strerror(errno) + ")";
  ::close(fd);
  std::string text = read_small_file(path);
  if (text.empty()) {
    // A runner creating it this instant writes its line right after O_EXCL: look once more.
    ::usleep(50 * 1000);
    text = read_small_file(path);
  }
  if (text.empty()) return "is empty (a creation cut short?)";
  if (!(text.size() == 32 && is_hex(text))) return "holds something other than 32 hex digits";
  return "";
}

}  // namespace

void require_usable_host_id_state_file() {
  if (std::getenv("FABRICGATE_HOST_ID") != nullptr) return;  // the pool names the runner
  const std::string dmi = lower(read_small_file("/sys/class/dmi/id/product_uuid"));
  if (!dmi.empty() && !is_placeholder_uuid(dmi)) return;  // the hypervisor names it
  const fs::path state = host_id_state_file();
  if (state.empty()) return;
  if (const std::string why = unusable_state_file(state); !why.empty()) {
    throw InputError(state.string(), "",
                     "this runner's id file (32 hex digits; it " + why +
                         "). Without it the runner would be told apart only by host name and CPU "
                         "model, which every VM of an image shares, and judged against another "
                         "machine's level: remove it and fabricgate makes a new one (this runner's "
                         "history in the store then starts again), or set FABRICGATE_HOST_ID");
  }
}

bool is_placeholder_uuid(const std::string& uuid) {
  std::string digits;
  for (const char c : lower(uuid)) {
    if (c != '-') digits += c;
  }
  if (digits.size() != 32 || !is_hex(digits)) return true;
  if (std::all_of(digits.begin(), digits.end(), [&](char c) { return c == digits.front(); }))
    return true;
  return digits == "03000200040005000006000700080009";
}

void require_usable_host_id_env() {
  const char* given = std::getenv("FABRICGATE_HOST_ID");
  if (given == nullptr || safe_runner_name(given)) return;
  throw InputError("FABRICGATE_HOST_ID", "(environment)",
                   "a runner name: 1 to 64 letters, digits, '.', '_' or '-' (it is " +
                       std::to_string(std::string(given).size()) +
                       " bytes and has other characters or none); unset it to use the machine's "
                       "own identity");
}

MachineIdentity read_machine_identity(const fs::path& root) {
  const bool real = root == "/";
  if (real) {
    if (const char* given = std::getenv("FABRICGATE_HOST_ID"); given && safe_runner_name(given))
      return {fnv1a64_hex(std::string("runner:") + given), "FABRICGATE_HOST_ID"};
  }
  const std::string dmi =
      lower(read_small_file(under_root(root, "/sys/class/dmi/id/product_uuid")));
  if (!dmi.empty() && !is_placeholder_uuid(dmi))
    return {fnv1a64_hex("dmi:" + dmi), "dmi-product-uuid"};
  const fs::path state =
      real ? host_id_state_file() : under_root(root, "/var/lib/fabricgate/host-id");
  if (!state.empty()) {
    if (const std::string id = state_file_id(state, real); !id.empty())
      return {fnv1a64_hex("state:" + id), "state-file:" + state.string()};
  }
  return {"", "hostname+cpu-model"};
}

}  // namespace fabricgate::fingerprint
