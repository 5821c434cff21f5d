#pragma once
// Reading and writing the JSON files fabricgate owns (runs, baselines, suites, fingerprints).
// Reads give InputError with the file name; writes are atomic (temp file, fsync, rename), so an
// interrupted write never leaves a half file where a good one was.
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace fabricgate {

using json = nlohmann::json;

// The deepest nesting any input may have. fabricgate's own documents nest fewer than 10 levels;
// a hostile file nested 10^5 deep parses fine but crashes later code that copies or compares the
// value recursively, so the limit is enforced while parsing, for every JSON and JSONL input.
inline constexpr std::size_t kMaxJsonDepth = 64;

// Parses a whole file. Throws InputError for a missing/unreadable file, invalid UTF-8, malformed
// or truncated JSON, duplicate object keys, nesting deeper than kMaxJsonDepth, and (when
// expected_schema is not empty) a missing or different "schema" field. expected_schema is like
// "fabricgate.run/1".
json load_json_file(const std::filesystem::path& path, std::string_view expected_schema = {});

// Same checks on text already in memory; `origin` names it in error messages.
json parse_json_text(std::string_view text, const std::string& origin,
                     std::string_view expected_schema = {});

// Writes `text` to `path` atomically (same-directory temp file, fsync, rename, fsync directory).
// The file keeps its permission bits (a new one gets 0644 less the umask); a symlink is written
// through (its target is replaced, the link stays); temp files a killed earlier write of the same
// file left behind are removed first.
void write_file_atomically(const std::filesystem::path& path, std::string_view text);

// Pretty-prints (2 spaces, trailing newline) and writes atomically.
void write_json_atomically(const std::filesystem::path& path, const json& doc);

// Appends one compact JSON line and flushes it to disk before returning (records.jsonl).
void append_json_line(const std::filesystem::path& path, const json& record);

// Field accessors that throw InputError naming file + JSON pointer + expectation.
class JsonReader {
 public:
  JsonReader(const json& doc, std::string file) : doc_(doc), file_(std::move(file)) {}

  const json& at(const std::string& pointer) const;    // must exist
  const json* find(const std::string& pointer) const;  // nullptr when absent
  std::string string_at(const std::string& pointer) const;
  double number_at(const std::string& pointer) const;        // finite
  double non_negative_at(const std::string& pointer) const;  // finite and >= 0
  long long integer_at(const std::string& pointer) const;
  bool bool_at(const std::string& pointer) const;
  const json& array_at(const std::string& pointer) const;
  const json& object_at(const std::string& pointer) const;
  [[noreturn]] void fail(const std::string& pointer, const std::string& expectation) const;
  // The object at `pointer` has no member outside `allowed` (a misspelt field is an error, never
  // ignored); the error lists the allowed names.
  void only_fields(const std::string& pointer,
                   std::initializer_list<std::string_view> allowed) const;

  const std::string& file() const { return file_; }

 private:
  const json& doc_;
  std::string file_;
};

// One reference token of a JSON pointer: "~" → "~0", "/" → "~1" (RFC 6901). Object keys from input
// files go through this before they become part of a field pointer.
std::string json_pointer_escape(std::string_view key);

// A name used as a path component (platform key, run id, suite name): letters, digits, '.', '_',
// '-', not starting with '.', at most 128 characters. Rejects "../", "/", spaces, shell syntax.
bool is_safe_name(std::string_view name);
void require_safe_name(std::string_view name, const std::string& file, const std::string& field);

}  // namespace fabricgate
