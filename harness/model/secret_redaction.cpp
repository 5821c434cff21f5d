#include "harness/model/secret_redaction.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace fabricgate {

namespace {

std::string upper(std::string_view s) {
  std::string up(s);
  std::transform(up.begin(), up.end(), up.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return up;
}

// The secret shapes are found by a scanner, not std::regex: libstdc++'s regex executor recurses
// once per character a quantifier takes, so a 30 kB value overflowed the stack (issue 41/52: a
// run.json string, an environment variable, a server's error body). Each pass below is linear in
// time and constant in stack, and matches what the patterns in the comments describe, leftmost
// first, quantifiers greedy, one match ending where the next may begin.

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool upper_or_digit(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// The length of the run of `in` characters at text[at...].
template <typename In>
std::size_t run_of(std::string_view text, std::size_t at, In in) {
  std::size_t n = 0;
  while (at + n < text.size() && in(text[at + n])) ++n;
  return n;
}

// A token that announces itself, starting at text[t]: its length, or 0.
//   gh[pousr]_[A-Za-z0-9]{16,} | github_pat_[A-Za-z0-9_]{16,} | xox[abposr]-[A-Za-z0-9-]{8,} |
//   glpat-[A-Za-z0-9_-]{16,} | (AKIA|ASIA)[0-9A-Z]{16} | sk-[A-Za-z0-9_-]{20,} |
//   eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}
std::size_t shaped_token(std::string_view text, std::size_t t) {
  const std::string_view rest = text.substr(t);
  const auto with = [&](std::size_t prefix, std::size_t min, auto in) -> std::size_t {
    const std::size_t n = run_of(text, t + prefix, in);
    return n >= min ? prefix + n : 0;
  };
  const auto b64url = [](char c) { return alnum(c) || c == '_' || c == '-'; };
  if (rest.size() >= 4 && rest.substr(0, 2) == "gh" &&
      std::string_view("pousr").find(rest[2]) != std::string_view::npos && rest[3] == '_')
    return with(4, 16, alnum);
  if (rest.starts_with("github_pat_")) return with(11, 16, word_char);
  if (rest.size() >= 4 && rest.substr(0, 3) == "xox" &&
      std::string_view("abposr").find(rest[3]) != std::string_view::npos && rest.size() >= 5 &&
      rest[4] == '-')
    return with(5, 8, [](char c) { return alnum(c) || c == '-'; });
  if (rest.starts_with("glpat-")) return with(6, 16, b64url);
  if ((rest.starts_with("AKIA") || rest.starts_with("ASIA")) &&
      run_of(text, t + 4, upper_or_digit) >= 16)
    return 20;
  if (rest.starts_with("sk-")) return with(3, 20, b64url);
  if (rest.starts_with("eyJ")) {
    std::size_t at = t + 3;
    for (int part = 0; part < 3; ++part) {
      if (part > 0) {
        if (at >= text.size() || text[at] != '.') return 0;
        ++at;
      }
      const std::size_t n = run_of(text, at, b64url);
      if (n < 8) return 0;
      at += n;
    }
    return at - t;
  }
  return 0;
}

// (^|[^A-Za-z0-9_])(TOKEN): the boundary kept, the token redacted.
std::string redact_shaped_tokens(std::string_view text) {
  std::string out;
  std::size_t done = 0;
  for (std::size_t t = 0; t < text.size(); ++t) {
    if (t > 0 && (t - 1 < done || word_char(text[t - 1]))) continue;  // boundary taken or a word
    const std::size_t n = shaped_token(text, t);
    if (n == 0) continue;
    out.append(text.substr(done, t - done));
    out += kRedacted;
    done = t + n;
    t = done - 1;
  }
  out.append(text.substr(done));
  return out;
}

// (Bearer|Basic|Token|Digest)\s+[A-Za-z0-9._~+/=:-]{6,}, any case: the word and blanks kept.
std::string redact_authorisation_values(std::string_view text) {
  const auto credential = [](char c) {
    return alnum(c) || std::string_view("._~+/=:-").find(c) != std::string_view::npos;
  };
  const auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::string out;
  std::size_t done = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    for (const std::string_view word : {"BEARER", "BASIC", "TOKEN", "DIGEST"}) {
      if (i + word.size() > text.size() || upper(text.substr(i, word.size())) != word) continue;
      const std::size_t blanks = run_of(text, i + word.size(), blank);
      if (blanks == 0) continue;
      const std::size_t value_at = i + word.size() + blanks;
      const std::size_t n = run_of(text, value_at, credential);
      if (n < 6) continue;
      out.append(text.substr(done, value_at - done));
      out += kRedacted;
      done = value_at + n;
      i = done - 1;
      break;
    }
  }
  out.append(text.substr(done));
  return out;
}

// (([?&;]|^-{0,2}|[ \t]-{0,2})([A-Za-z0-9_.-]+)=)[^&#\s"'<>]+ where the name says it is a
// secret: "name=" kept.
// A match that is not a secret is still consumed, as the regex iteration did.
template <typename Secret>
std::string redact_secret_params(std::string_view text, Secret secret) {
  const auto name_char = [](char c) { return alnum(c) || c == '_' || c == '.' || c == '-'; };
  const auto value_char = [](char c) {
    return std::string_view("&#\"'<>").find(c) == std::string_view::npos &&
           std::isspace(static_cast<unsigned char>(c)) == 0;
  };
  std::string out;
  std::size_t done = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t name_at = std::string_view::npos;
    if (std::string_view("?&;").find(text[i]) != std::string_view::npos) {
      name_at = i + 1;
    } else if (i == 0 || text[i] == ' ' || text[i] == '\t') {
      // A command line inside a value (OMPI_MCA_plm_rsh_agent="ssh ... --password=x"): an
      // option after a blank, or at the start, with its one or two dashes (issue 52).
      name_at = i == 0 && text[i] != ' ' && text[i] != '\t' ? 0 : i + 1;
      for (int dash = 0; dash < 2 && name_at < text.size() && text[name_at] == '-'; ++dash)
        ++name_at;
    }
    if (name_at == std::string_view::npos) {
      ++i;
      continue;
    }
    const std::size_t name_len = run_of(text, name_at, name_char);
    const std::size_t eq = name_at + name_len;
    const std::size_t value_len =
        name_len > 0 && eq < text.size() && text[eq] == '=' ? run_of(text, eq + 1, value_char) : 0;
    if (value_len == 0) {
      ++i;
      continue;
    }
    const std::size_t end = eq + 1 + value_len;
    if (secret(text.substr(name_at, name_len))) {
      out.append(text.substr(done, eq + 1 - done));
      out += kRedacted;
      done = end;
    }
    i = end;
  }
  out.append(text.substr(done));
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
  // Token formats that announce themselves (GitHub classic and fine-grained, Slack, GitLab, AWS
  // access key ids, OpenAI-style keys, JSON web tokens); an authorisation value as a header or a
  // log quotes it; a URL query parameter (or a key=value list item) whose name says it is secret.
  std::string out = redact_url_credentials(text);
  out = redact_shaped_tokens(out);
  out = redact_authorisation_values(out);
  return redact_secret_params(out, [](std::string_view n) {
    const std::string name = upper(n);
    return is_secret_variable(name) || name == "SIGNATURE" || name == "CODE" ||
           name == "X-AMZ-SIGNATURE" || name == "X-AMZ-CREDENTIAL";
  });
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
