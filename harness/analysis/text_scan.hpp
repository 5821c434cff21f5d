#pragma once
// A forward-only cursor over one log message. The NCCL log parser is fed whatever a crashed or
// truncated run left behind (and is fuzzed), so every read here is bounds-checked and reports
// failure as an empty optional instead of throwing.
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace fabricgate::capture {

class TextScan {
 public:
  explicit TextScan(std::string_view text) : rest_(text) {}

  std::string_view rest() const { return rest_; }
  bool done() const { return rest_.empty(); }

  // Consumes `prefix` when the text starts with it.
  bool literal(std::string_view prefix) {
    if (!rest_.starts_with(prefix)) return false;
    rest_.remove_prefix(prefix.size());
    return true;
  }

  void skip_spaces() {
    while (!rest_.empty() && (rest_.front() == ' ' || rest_.front() == '\t'))
      rest_.remove_prefix(1);
  }

  // Optional '-' and decimal digits; empty on no digits or overflow.
  std::optional<long long> integer() {
    long long value = 0;
    const char* begin = rest_.data();
    auto [end, ec] = std::from_chars(begin, begin + rest_.size(), value);
    if (ec != std::errc{}) return std::nullopt;
    rest_.remove_prefix(static_cast<std::size_t>(end - begin));
    return value;
  }

  // Hex digits with an optional 0x; empty on no digits or overflow.
  std::optional<std::uint64_t> hex() {
    TextScan probe = *this;
    if (!probe.literal("0x")) probe.literal("0X");
    std::uint64_t value = 0;
    const char* begin = probe.rest_.data();
    auto [end, ec] = std::from_chars(begin, begin + probe.rest_.size(), value, 16);
    if (ec != std::errc{}) return std::nullopt;
    probe.rest_.remove_prefix(static_cast<std::size_t>(end - begin));
    *this = probe;
    return value;
  }

  // Everything up to (not including) `stop`; the whole rest when `stop` does not occur.
  std::string_view until(std::string_view stop) {
    const std::size_t at = rest_.find(stop);
    const std::string_view taken = rest_.substr(0, at);
    rest_.remove_prefix(taken.size());
    return taken;
  }

  // The next run of non-blank characters.
  std::string_view word() {
    std::size_t n = 0;
    while (n < rest_.size() && rest_[n] != ' ' && rest_[n] != '\t') ++n;
    const std::string_view taken = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return taken;
  }

 private:
  std::string_view rest_;
};

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

inline bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace fabricgate::capture
