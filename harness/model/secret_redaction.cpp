#include "harness/model/secret_redaction.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace fabricgate {

namespace {

std::string upper(std::string_view s) {
  std::string up(s);
  std::transform(up.begin(), up.end(), up.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return up;
}

// Replaces group `keep` + what follows of every match of `re` in `text` by group `keep` and
// "<redacted>"; `secret` decides per match (by its name group) whether it is one.
template <typename Secret>
std::string replace_matches(const std::string& text, const std::regex& re, int keep,
                            Secret secret) {
  std::string out;
  std::size_t done = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it) {
    const std::smatch& m = *it;
    if (!secret(m)) continue;
    const auto at = static_cast<std::size_t>(m.position(0));
    out.append(text, done, at - done);
    out += m.str(keep);
    out += kRedacted;
    done = at + static_cast<std::size_t>(m.length(0));
  }
  out.append(text, done, std::string::npos);
  return out;
}

}  // namespace

bool is_secret_variable(std::string_view name) {
  const std::string up = upper(name);
  // AWS_* as a whole: AWS_ACCESS_KEY_ID pairs with values that name no secret word.
  if (up.rfind("AWS_", 0) == 0) return true;
  for (const std::string_view word : {"TOKEN", "KEY", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE",
                                      "CREDENTIAL", "PRIVATE", "COOKIE"}) {
    if (up.find(word) != std::string::npos) return true;
  }
  // Short words only as a whole word: DB_PASS, SMTP_PWD, API-AUTH, URL_SIG, but not PASSTHROUGH,
  // BYPASS, AUTHOR or the shell's own PWD and OLDPWD.
  if (up == "PWD" || up == "OLDPWD") return false;
  std::size_t start = 0;
  while (start <= up.size()) {
    const std::size_t end = std::min(up.find_first_of("_-.", start), up.size());
    const std::string_view word = std::string_view(up).substr(start, end - start);
    for (const std::string_view w : {"PASS", "PWD", "PW", "AUTH", "SIG", "CREDS"}) {
      if (word == w) return true;
    }
    start = end + 1;
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

std::string redact_secret_shapes(std::string_view text) {
  // Token formats that announce themselves: GitHub (classic and fine-grained), Slack, GitLab,
  // AWS access key ids, OpenAI-style keys, JSON web tokens.
  static const std::regex shaped(
      R"((^|[^A-Za-z0-9_])((gh[pousr]_[A-Za-z0-9]{16,})|(github_pat_[A-Za-z0-9_]{16,})|(xox[abposr]-[A-Za-z0-9-]{8,})|(glpat-[A-Za-z0-9_-]{16,})|((AKIA|ASIA)[0-9A-Z]{16})|(sk-[A-Za-z0-9_-]{20,})|(eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})))");
  // An authorisation value, as a header or a log quotes it.
  static const std::regex scheme(R"(((Bearer|Basic|Token|Digest)\s+)[A-Za-z0-9._~+/=:-]{6,})",
                                 std::regex::icase);
  // A URL query parameter (or a key=value list item) whose name says it is a secret.
  static const std::regex param(R"((([?&;]|^)([A-Za-z0-9_.-]+)=)[^&#\s"'<>]+)");
  std::string out = redact_url_credentials(text);
  out = replace_matches(out, shaped, 1, [](const std::smatch&) { return true; });
  out = replace_matches(out, scheme, 1, [](const std::smatch&) { return true; });
  out = replace_matches(out, param, 1, [](const std::smatch& m) {
    const std::string name = upper(m.str(3));
    return is_secret_variable(name) || name == "SIGNATURE" || name == "CODE" ||
           name == "X-AMZ-SIGNATURE" || name == "X-AMZ-CREDENTIAL";
  });
  return out;
}

std::string recordable_value(std::string_view name, std::string_view value) {
  return is_secret_variable(name) ? std::string(kRedacted) : redact_secret_shapes(value);
}

std::map<std::string, std::string> recordable_environment(
    const std::map<std::string, std::string>& env) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : env) out.emplace(name, recordable_value(name, value));
  return out;
}

std::string recordable_config_text(std::string_view text) {
  std::istringstream lines{std::string(text)};
  std::string out;
  std::string line;
  while (std::getline(lines, line)) {
    const auto first = line.find_first_not_of(" \t");
    const auto eq = line.find('=');
    if (first != std::string::npos && line[first] != '#' && eq != std::string::npos && eq > first) {
      std::string name = line.substr(first, eq - first);
      name.erase(name.find_last_not_of(" \t") + 1);
      out += line.substr(0, eq + 1) + recordable_value(name, line.substr(eq + 1));
    } else {
      out += redact_secret_shapes(line);
    }
    out += '\n';
  }
  if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

}  // namespace fabricgate
