#pragma once
// Environment values that must never reach a recorded file: fingerprints, run.json and
// launch.json are published and committed. A variable whose NAME looks like a credential (TOKEN,
// KEY, SECRET, PASSWORD, PASSWD or CREDENTIAL anywhere in it, any case; every AWS_* variable)
// keeps its name but its value becomes "<redacted>"; in any other value the user[:password]@ part
// of a URL ("https://alice:pw@proxy:3128") becomes "<redacted>@".
#include <map>
#include <string>
#include <string_view>

namespace fabricgate {

inline constexpr std::string_view kRedacted = "<redacted>";

bool is_secret_variable(std::string_view name);

// `value` with the user information of every URL in it ("scheme://userinfo@host") replaced.
std::string redact_url_credentials(std::string_view value);

// What may be recorded for NAME=VALUE: "<redacted>" for a secret name, else the value without
// URL credentials.
std::string recordable_value(std::string_view name, std::string_view value);

// recordable_value applied to every entry.
std::map<std::string, std::string> recordable_environment(
    const std::map<std::string, std::string>& env);

}  // namespace fabricgate
