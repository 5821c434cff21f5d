#include "harness/store/store_location.hpp"

#include <cctype>
#include <cstdlib>
#include <regex>

#include "core/errors.hpp"
#include "harness/model/secret_redaction.hpp"

namespace fabricgate::store {

namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// "user:secret@" in a URI, or a keyword whose name says secret (password=, sslpassword=,
// PassWord=, a *_token= or *passphrase=; secret_redaction's rule) in a conninfo string or a URI
// query. sslkey=, sslcert= and sslrootcert= name files and are allowed.
// "%70assword" -> "password": libpq decodes a URI's percent escapes (keys included), so the
// check must see the decoded names too (issue 52: `?pass%77ord=` passed the refusal).
std::string percent_decoded(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

bool carries_password_as_written(const std::string& text);

bool carries_password(const std::string& text) {
  return carries_password_as_written(text) || carries_password_as_written(percent_decoded(text));
}

bool carries_password_as_written(const std::string& text) {
  static const std::regex uri_password(R"(^[a-z]+://[^/@]*:[^/@]*@)", std::regex::icase);
  static const std::regex keyword(R"((^|[\s?&])([A-Za-z_]+)\s*=)");
  if (std::regex_search(text, uri_password)) return true;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), keyword);
       it != std::sregex_iterator(); ++it) {
    std::string name = (*it)[2].str();
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == "sslkey" || name == "sslcert" || name == "sslrootcert" || name == "sslcrl" ||
        name == "passfile" || name == "sslkeylogfile")
      continue;
    if (is_secret_variable(name) || name.find("pass") != std::string::npos) return true;
  }
  return false;
}

std::chrono::seconds store_timeout() {
  const char* env = std::getenv("FABRICGATE_STORE_TIMEOUT");
  if (env == nullptr || *env == 0) return std::chrono::seconds(30);
  char* end = nullptr;
  const long seconds = std::strtol(env, &end, 10);
  if (*end != 0 || seconds < 1 || seconds > 3600)
    throw InputError("FABRICGATE_STORE_TIMEOUT", "",
                     "whole seconds from 1 to 3600, found \"" + std::string(env) + "\"");
  return std::chrono::seconds(seconds);
}

bool names_sqlite_uri(const std::string& target) {
  std::string lower = target.substr(0, 5);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "file:" || target == ":memory:" || target.rfind(":memory:", 0) == 0;
}

}  // namespace

const char* store_kind_name(StoreKind kind) {
  switch (kind) {
    case StoreKind::none: return "none";
    case StoreKind::sqlite: return "sqlite";
    case StoreKind::postgresql: return "postgresql";
  }
  return "?";
}

StoreLocation parse_store_location(const std::string& text, const std::string& origin) {
  StoreLocation l;
  l.origin = origin;
  l.timeout = store_timeout();
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20) {
      throw InputError(origin, "", "a store location without control characters");
    }
  }
  if (text == "none") {
    l.display = "none";
    return l;
  }
  if (starts_with(text, "sqlite:")) {
    l.kind = StoreKind::sqlite;
    l.target = text.substr(7);
    if (starts_with(l.target, "//")) l.target = l.target.substr(2);  // sqlite:///abs/path
    if (l.target.empty())
      throw InputError(origin, "", "sqlite:PATH with a file path, found \"sqlite:\"");
    if (names_sqlite_uri(l.target))
      throw InputError(origin, "",
                       "sqlite:PATH with a plain file path; SQLite URI names and their parameters "
                       "(file:...?mode=ro|memory, vfs=, :memory:) are not accepted, found \"" +
                           l.target + "\" (a file literally named so: sqlite:./" + l.target + ")");
    l.display = "sqlite:" + l.target;
    return l;
  }
  const bool uri = starts_with(text, "postgresql://") || starts_with(text, "postgres://");
  const bool conninfo =
      !uri && text.find('=') != std::string::npos && text.find("://") == std::string::npos;
  if (!uri && !conninfo) {
    throw InputError(origin, "",
                     "sqlite:PATH, postgresql://HOST/DB, a libpq conninfo (host=... dbname=...) or "
                     "none; found \"" +
                         redact_url_credentials(text) + "\"");
  }
  if (carries_password(text)) {
    throw InputError(origin, "",
                     "a store location without a password (give it in PGPASSWORD or a PGPASSFILE, "
                     "never in the URL, which would reach logs)");
  }
  l.kind = StoreKind::postgresql;
  l.target = text;
  l.display = redact_url_credentials(text);
  return l;
}

StoreLocation resolve_store_location(const std::string& option,
                                     const std::filesystem::path& results_root) {
  if (!option.empty()) return parse_store_location(option, "--store");
  if (const char* env = std::getenv("FABRICGATE_STORE"); env && *env)
    return parse_store_location(env, "FABRICGATE_STORE");
  StoreLocation l =
      parse_store_location("sqlite:" + (results_root / "fabricgate.sqlite").string(), "default");
  return l;
}

}  // namespace fabricgate::store
