#pragma once
// The limits a suite file must respect, in one place for the harness (which validates the whole
// suite before it takes the runner lock, fingerprints or launches anything) and the bench (which
// reads the same fields when it registers benchmarks). Both call these functions, so a suite the
// harness accepts is never refused by the bench for a limit, and the other way round.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/json_file.hpp"

namespace fabricgate {

// Processes in one launch: more than any single job this gate is meant for, and small enough that
// a typo ("ranks": 65536, --ranks 1000000) is refused instead of forking that many processes.
inline constexpr int kMaxRanks = 4096;
// One message: 1 TiB, above any GPU's memory; sizes are > 0 (a 0-byte sweep measures nothing).
inline constexpr std::uint64_t kMaxSuiteBytes = 1ULL << 40;
inline constexpr std::size_t kMaxSizesPerEntry = 4096;
// Benchmarks one launch registers, counted before the machine is known (entry_benchmark_count
// below): the largest shipped suite asks for a few thousand; 5x10^4 keeps a run
// file, a baseline and a report of one launch readable; the bench registers 50k in about 5 s (2
// cores).
inline constexpr std::uint64_t kMaxSuiteBenchmarks = 50000;
// A total is counted up to this and then shown as "or more".
inline constexpr std::uint64_t kMaxCountShown = std::uint64_t{1} << 62;

struct IntegerRange {
  long long lo;
  long long hi;
};
inline constexpr IntegerRange kRepetitions{1, 1000};
inline constexpr IntegerRange kWarmupOps{1, 100000};
inline constexpr IntegerRange kIterations{1, 1000000};
inline constexpr double kMaxTargetSampleMs = 60000;
inline constexpr double kMaxTimeoutSeconds = 86400;

// "8", "64K", "16M", "1G", "16GiB", "1T" -> bytes (binary prefixes, P08); nullopt otherwise.
std::optional<std::uint64_t> parse_size_text(std::string_view text);

// A size field: a number or a size string, in [1, kMaxSuiteBytes]. Throws InputError naming it.
std::uint64_t suite_size_at(const JsonReader& reader, const std::string& pointer);

// The number of sizes of the "sizes" object at `pointer` (list or sweep), validated as
// suite_size_at does; InputError when absent or out of bounds.
std::size_t suite_size_count(const JsonReader& reader, const std::string& pointer);

// An optional integer field in `range` (InputError naming it otherwise); `fallback` when absent.
int suite_integer_in(const JsonReader& reader, const std::string& pointer, IntegerRange range,
                     int fallback);

// A process count from --ranks or a suite: in [1, kMaxRanks]. `origin`/`field` name it.
void require_rank_count(long long ranks, const std::string& origin, const std::string& field);

// The benchmarks one entry asks for, before the machine is known: sizes × the length of every
// list field (or its default) × the providers/devices/gpus it names. An upper bound of what the
// bench registers per launch (it skips what a machine cannot run, and splits p2p per GPU pair).
std::uint64_t entry_benchmark_count(const JsonReader& reader, const std::string& pointer);

// Everything of one suite that does not need the bench's fixtures: ranks, defaults and each
// entry's repetitions, warmup, iterations, target_sample_ms, timeout_s, sizes (list or sweep:
// bounds, factor, count), every name (core/suite_names.hpp: family, backend, ops, dtypes, ...)
// and the total number of benchmarks (kMaxSuiteBenchmarks). Throws InputError naming the file
// and the field.
void validate_suite_document(const JsonReader& reader);

}  // namespace fabricgate
