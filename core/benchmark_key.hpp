#pragma once
// The grammar of a benchmark key, checked wherever a key is read (runs, records.jsonl,
// baselines): keys end up in JUnit names, annotations, HTML, file diffs and JSON pointers.
//   key      = segment *( "/" segment )     at most kMaxKeyBytes bytes
//   segment  = 1*( ALPHA / DIGIT / "_" / "-" / "." / ":" / "+" / "=" / "," / ";" / "@" )
// and no segment is "." or "..". So no spaces, quotes, backslashes, control characters or
// non-ASCII bytes, nothing that starts a GitHub workflow command ("::" cannot follow "/" or
// start the key because ':' may not start a key).
#include <cstddef>
#include <string>
#include <string_view>

namespace fabricgate {

inline constexpr std::size_t kMaxKeyBytes = 512;

// "" when `key` follows the grammar, else what was expected (for an InputError).
std::string benchmark_key_problem(std::string_view key);

}  // namespace fabricgate
