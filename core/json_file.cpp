#include "core/json_file.hpp"

#include <algorithm>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "core/errors.hpp"
#include "core/in_flight_paths.hpp"
#include "core/regular_file.hpp"

namespace fabricgate {

namespace fs = std::filesystem;

namespace {

std::string errno_text() { return std::strerror(errno); }

// Writes all of `text` to fd, retrying short writes.
bool write_all(int fd, std::string_view text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

void fsync_directory(const fs::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

}  // namespace

// Builds the document with nlohmann's own DOM builder and, on the way, rejects duplicate object
// keys (legal JSON, but ambiguous for a baseline). A SAX wrapper keeps this linear: the parser's
// callback interface re-scans each finished container, which made 10^4-entry files take seconds.
namespace {
class DuplicateKeyRejectingBuilder {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  explicit DuplicateKeyRejectingBuilder(json& result) : dom_(result, true) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) { return dom_.number_float(v, s); }
  bool string(string_t& v) { return dom_.string(v); }
  bool binary(binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) {
    if (too_deep()) return false;
    keys_.emplace_back();
    return dom_.start_object(n);
  }
  bool key(string_t& k) {
    if (!keys_.back().insert(k).second) {
      duplicate = k;
      return false;  // stops the parse; reported by the caller
    }
    return dom_.key(k);
  }
  bool end_object() {
    keys_.pop_back();
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t n) { return too_deep() ? false : dom_.start_array(n); }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  template <typename Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& ex) {
    return dom_.parse_error(position, token, ex);  // throws (allow_exceptions)
  }

  std::string duplicate;
  bool exceeded_depth = false;

 private:
  // Counts the container being opened; stops the parse (reported by the caller) past the limit.
  bool too_deep() {
    if (++depth_ <= kMaxJsonDepth) return false;
    exceeded_depth = true;
    return true;
  }

  std::size_t depth_ = 0;
  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::vector<std::set<std::string>> keys_;
};
}  // namespace

json parse_json_text(std::string_view text, const std::string& origin,
                     std::string_view expected_schema) {
  json doc;
  DuplicateKeyRejectingBuilder builder(doc);
  try {
    json::sax_parse(text.begin(), text.end(), &builder);
  } catch (const json::exception& e) {  // parse errors and number overflow (out_of_range.406)
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] "; keep the human part.
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    throw InputError(origin, "", "not valid JSON (" + what + ")");
  }
  if (builder.exceeded_depth) {
    throw InputError(origin, "",
                     "JSON nested at most " + std::to_string(kMaxJsonDepth) +
                         " levels deep (arrays and objects), found deeper nesting");
  }
  if (!builder.duplicate.empty()) {
    throw InputError(
        origin, "",
        "duplicate object key \"" + builder.duplicate + "\" (each key must appear once)");
  }
  if (!expected_schema.empty()) {
    if (!doc.is_object()) throw InputError(origin, "/", "a JSON object");
    auto it = doc.find("schema");
    if (it == doc.end() || !it->is_string()) {
      throw InputError(origin, "/schema", "a string \"" + std::string(expected_schema) + "\"");
    }
    const std::string schema = it->get<std::string>();
    if (schema != expected_schema) {
      throw InputError(origin, "/schema",
                       "\"" + std::string(expected_schema) + "\", found \"" + schema + "\"");
    }
  }
  return doc;
}

json load_json_file(const fs::path& path, std::string_view expected_schema) {
  // Never blocks: a FIFO, socket or device is refused (regular_file.hpp).
  const RegularFileText read = read_regular_file(path);
  if (!read.ok()) throw InputError(path.string(), "", read.error);
  return parse_json_text(read.text, path.string(), expected_schema);
}

namespace {

// A link is written through: the file it points to is replaced, the link stays a link.
fs::path write_target(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_symlink(path, ec)) return path;
  const fs::path resolved = fs::weakly_canonical(path, ec);
  return ec ? path : resolved;
}

// The replaced file's permission bits, or 0644 (less the umask) for a new file: mkstemp's 0600
// would make a shared baseline unreadable to the next CI user.
mode_t mode_for(const fs::path& target) {
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) return st.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return static_cast<mode_t>(0644 & ~mask);
}

// Temp files of an earlier write that was killed (signal, file-size limit) before its rename.
void remove_stale_temps(const fs::path& dir, const std::string& prefix) {
  std::error_code ec;
  for (fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() == prefix.size() + 6 && name.compare(0, prefix.size(), prefix) == 0 &&
        it->is_regular_file(ec)) {
      fs::remove(it->path(), ec);
    }
  }
}

}  // namespace

void write_file_atomically(const fs::path& requested, std::string_view text) {
  const fs::path path = write_target(requested);
  const fs::path dir = path.parent_path();
  if (!dir.empty()) fs::create_directories(dir);
  const std::string prefix = "." + path.filename().string() + ".tmp";
  remove_stale_temps(dir, prefix);
  std::string tmpl = (dir / (prefix + "XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  // Blocked while the name is created and registered: a SIGTERM in between would leave it.
  sigset_t stop_signals;
  sigset_t previous;
  sigemptyset(&stop_signals);
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) sigaddset(&stop_signals, sig);
  ::pthread_sigmask(SIG_BLOCK, &stop_signals, &previous);
  const int fd = ::mkstemp(name.data());
  std::optional<InFlightPath> in_flight;
  if (fd >= 0) in_flight.emplace(fs::path(name.data()), false);
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (fd < 0)
    throw InfraError("cannot create temporary file next to " + path.string() + ": " + errno_text());
  const bool ok = ::fchmod(fd, mode_for(path)) == 0 && write_all(fd, text) && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!ok) {
    ::unlink(name.data());
    throw InfraError("cannot write " + path.string() + ": " + std::strerror(saved));
  }
  if (::rename(name.data(), path.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(name.data());
    throw InfraError("cannot rename temporary file to " + path.string() + ": " + why);
  }
  fsync_directory(dir);
}

void write_json_atomically(const fs::path& path, const json& doc) {
  // Strings from system probes (fi_info, sysfs) may hold invalid UTF-8: write U+FFFD, never throw.
  write_file_atomically(path, doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

void append_json_line(const fs::path& path, const json& record) {
  if (!path.parent_path().empty()) fs::create_directories(path.parent_path());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw InfraError("cannot open " + path.string() + " for appending: " + errno_text());
  // One write() of the whole line: O_APPEND keeps concurrent appenders from interleaving.
  const bool ok =
      write_all(fd, record.dump(-1, ' ', false, json::error_handler_t::replace) + "\n") &&
      ::fdatasync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!ok) throw InfraError("cannot append to " + path.string() + ": " + std::strerror(saved));
}

const json* JsonReader::find(const std::string& pointer) const {
  try {
    const json::json_pointer ptr(pointer);
    return doc_.contains(ptr) ? &doc_.at(ptr) : nullptr;
  } catch (const json::exception&) {
    // A pointer built from an unescaped input key is malformed: that input is the problem.
    throw InputError(file_, pointer, "an object key usable in a field path");
  }
}

std::string json_pointer_escape(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

const json& JsonReader::at(const std::string& pointer) const {
  const json* v = find(pointer);
  if (v == nullptr) fail(pointer, "present (it is missing)");
  return *v;
}

std::string JsonReader::string_at(const std::string& pointer) const {
  const json& v = at(pointer);
  if (!v.is_string()) fail(pointer, "a string, found " + std::string(v.type_name()));
  return v.get<std::string>();
}

double JsonReader::number_at(const std::string& pointer) const {
  const json& v = at(pointer);
  if (!v.is_number()) fail(pointer, "a number, found " + std::string(v.type_name()));
  const double d = v.get<double>();
  if (!std::isfinite(d)) fail(pointer, "a finite number");
  return d;
}

double JsonReader::non_negative_at(const std::string& pointer) const {
  const double d = number_at(pointer);
  if (d < 0) fail(pointer, "a number >= 0, found " + std::to_string(d));
  return d;
}

long long JsonReader::integer_at(const std::string& pointer) const {
  const json& v = at(pointer);
  if (!v.is_number_integer()) fail(pointer, "an integer, found " + v.dump());
  // 2^63 .. 2^64-1 parse as unsigned; converting them would print (and check) a negative number.
  if (v.is_number_unsigned() &&
      v.get<unsigned long long>() > static_cast<unsigned long long>(LLONG_MAX)) {
    fail(pointer, "an integer at most 2^63-1, found " + v.dump());
  }
  return v.get<long long>();
}

bool JsonReader::bool_at(const std::string& pointer) const {
  const json& v = at(pointer);
  if (!v.is_boolean()) fail(pointer, "true or false, found " + std::string(v.type_name()));
  return v.get<bool>();
}

const json& JsonReader::array_at(const std::string& pointer) const {
  const json& v = at(pointer);
  if (!v.is_array()) fail(pointer, "an array, found " + std::string(v.type_name()));
  return v;
}

const json& JsonReader::object_at(const std::string& pointer) const {
  const json& v = at(pointer);
  if (!v.is_object()) fail(pointer, "an object, found " + std::string(v.type_name()));
  return v;
}

void JsonReader::fail(const std::string& pointer, const std::string& expectation) const {
  throw InputError(file_, pointer, "expected " + expectation);
}

void JsonReader::only_fields(const std::string& pointer,
                             std::initializer_list<std::string_view> allowed) const {
  for (const auto& [name, value] : object_at(pointer).items()) {
    if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
    std::vector<std::string_view> sorted(allowed);
    std::sort(sorted.begin(), sorted.end());
    std::string list;
    for (const std::string_view a : sorted) list += (list.empty() ? "" : ", ") + std::string(a);
    fail(pointer + "/" + json_pointer_escape(name), "no such field (allowed: " + list + ")");
  }
}

bool is_safe_name(std::string_view name) {
  if (name.empty() || name.size() > 128 || name.front() == '.') return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

void require_safe_name(std::string_view name, const std::string& file, const std::string& field) {
  if (!is_safe_name(name)) {
    throw InputError(file, field,
                     "a name of letters, digits, '.', '_' or '-' (not starting with '.', at most "
                     "128 characters), found \"" +
                         std::string(name) + "\"");
  }
}

}  // namespace fabricgate
