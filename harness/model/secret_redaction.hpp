#pragma once
// Secrets must never reach a recorded or printed text: fingerprints, run.json, launch.json, the
// store, reports, publish payloads and the messages that quote a server's answer. This is the one
// place that decides what a secret is, by NAME and by the SHAPE of a value:
// - a variable whose name looks like a credential (TOKEN, KEY, SECRET, PASSWORD, PASSWD,
//   PASSPHRASE, CREDENTIAL, PRIVATE, COOKIE anywhere in it; PASS, PWD, PW, AUTH, SIG, CREDS as a
//   word between '_', '-' or '.'; every AWS_* variable; any case) keeps its name, loses its value;
// - in any other value: URL user information ("https://alice:pw@proxy" -> "https://<redacted>@"),
//   URL query parameters with a secret name or sig/signature/code ("?token=", "&sig="), Bearer,
//   Basic and Token authorisation values, and token-shaped strings (ghp_..., github_pat_...,
//   xoxb-/xoxp-..., glpat-..., AKIA..., JSON web tokens) become "<redacted>".
#include <map>
#include <string>
#include <string_view>

namespace fabricgate {

inline constexpr std::string_view kRedacted = "<redacted>";

bool is_secret_variable(std::string_view name);

// `value` with the user information of every URL in it ("scheme://userinfo@host") replaced.
std::string redact_url_credentials(std::string_view value);

// `text` with every secret recognisable by its shape replaced (URL credentials included): for
// values of non-secret names, and for any text quoted from elsewhere (a server's answer).
std::string redact_secret_shapes(std::string_view text);

// What may be recorded for NAME=VALUE: "<redacted>" for a secret name, else the value with every
// secret shape replaced.
std::string recordable_value(std::string_view name, std::string_view value);

// recordable_value applied to every entry.
std::map<std::string, std::string> recordable_environment(
    const std::map<std::string, std::string>& env);

// A NAME=VALUE configuration file (nccl.conf) as it may be recorded: each assignment through
// recordable_value, every other line through redact_secret_shapes; comments kept.
std::string recordable_config_text(std::string_view text);

}  // namespace fabricgate
