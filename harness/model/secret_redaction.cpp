#include "harness/model/secret_redaction.hpp"

#include <algorithm>
#include <cctype>

namespace fabricgate {

bool is_secret_variable(std::string_view name) {
  std::string up(name);
  std::transform(up.begin(), up.end(), up.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  // AWS_* as a whole: AWS_ACCESS_KEY_ID pairs with values that name no secret word.
  if (up.rfind("AWS_", 0) == 0) return true;
  for (const std::string_view word :
       {"TOKEN", "KEY", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"}) {
    if (up.find(word) != std::string::npos) return true;
  }
  return false;
}

std::string redact_url_credentials(std::string_view value) {
  std::string out;
  std::size_t done = 0;  // value[0, done) is in `out`
  for (std::size_t scheme = value.find("://"); scheme != std::string_view::npos;
       scheme = value.find("://", done)) {
    const std::size_t authority = scheme + 3;
    // The authority ends at the path, query or fragment, or where a list of values separates.
    std::size_t end = value.find_first_of("/?#,; \t", authority);
    if (end == std::string_view::npos) end = value.size();
    const std::size_t at = value.substr(authority, end - authority).rfind('@');
    if (at != std::string_view::npos && at > 0) {
      out.append(value.substr(done, authority - done));
      out.append(kRedacted);
      done = authority + at;  // keeps "@host..."
    } else {
      out.append(value.substr(done, end - done));
      done = end;
    }
  }
  out.append(value.substr(done));
  return out;
}

std::string recordable_value(std::string_view name, std::string_view value) {
  return is_secret_variable(name) ? std::string(kRedacted) : redact_url_credentials(value);
}

std::map<std::string, std::string> recordable_environment(
    const std::map<std::string, std::string>& env) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : env) out.emplace(name, recordable_value(name, value));
  return out;
}

}  // namespace fabricgate
