#pragma once
// The grammar of a benchmark key, checked wherever a key is read (runs, records.jsonl,
// baselines): keys end up in JUnit names, annotations, HTML, file diffs and JSON pointers.
//   key      = segment *( "/" segment )     at most kMaxKeyBytes bytes
//   segment  = 1*( ALPHA / DIGIT / "_" / "-" / "." / ":" / "+" / "=" / "," / ";" / "@" )
// and no segment is "." or "..". A segment with ':' is a tag "name:value": the name is lower case
// ([a-z][a-z0-9_]*), appears once per key, and a count (bytes, ranks, gpp, root, src, dst, gpu,
// window, qps, round; any value of digits) is written in canonical decimal: no sign, no leading
// zero, no unit. So one benchmark has one key: "bytes:08", "bytes:8B", "Bytes:8" and "ranks:02"
// are refused instead of being gated as other keys. So no spaces, quotes, backslashes, control
// characters or non-ASCII bytes, nothing that starts a GitHub workflow command ("::" cannot follow
// "/" or start the key because ':' may not start a key).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fabricgate {

inline constexpr std::size_t kMaxKeyBytes = 512;

// "" when `key` follows the grammar, else what was expected (for an InputError).
std::string benchmark_key_problem(std::string_view key);

// The record fields a key repeats, which must agree with it: the family (its first part;
// "pairs" for nodepairs), and the bytes, ranks and gpp tags where the key has them.
struct KeyedFields {
  std::string_view family;
  std::uint64_t bytes = 0;
  long long nranks = 0;
  long long gpus_per_process = 1;
};

// "" when the key agrees with the fields, else what was expected, e.g.
// "a key whose bytes:16 matches the record's bytes (8)". `key` follows the grammar.
std::string key_record_mismatch(std::string_view key, const KeyedFields& fields);

}  // namespace fabricgate
