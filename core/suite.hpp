#pragma once
// Suite files (schema fabricgate.suite/1): which fixtures, sizes, repetitions, how many ranks,
// which control scenarios and environment. Loaded and validated here for both the harness (which
// launches) and the bench (which registers benchmarks from the "benchmarks" entries), with the
// limits both check and the advice a valid suite may still earn (below).
//
// {
//   "schema": "fabricgate.suite/1", "name": "quick", "description": "...",
//   "ranks": "per-gpu" | 2,                    // processes to launch (per-gpu: one per GPU)
//   "min_ranks": 2,                            // refuse to launch with fewer (default 1)
//   "scenarios": ["default", "nvlink-off"],    // each runs in a fresh launch (NCCL caches its env)
//   "env": {"NCCL_NVLS_ENABLE": "0"},          // set for every rank of every scenario
//   "defaults": {"repetitions": 5, "warmup": 5, "target_sample_ms": 20},
//   "benchmarks": [
//     {"family": "coll", "backend": "mpi", "sizes": {"min": 8, "max": "1M", "factor": 4}}, ...]
// }
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_file.hpp"

namespace fabricgate {

struct Suite {
  std::filesystem::path file;
  std::string name;
  std::string description;
  int ranks = 0;  // 0 = one per GPU
  int min_ranks = 1;
  std::vector<std::string> scenarios{"default"};
  std::map<std::string, std::string> env;
  json doc;  // the whole document (the bench reads "defaults" and "benchmarks" from it)
};

Suite load_suite(const std::filesystem::path& file);

// Whether a "benchmarks" entry runs on NCCL: coll or nodepairs with backend "nccl" (node pairs
// default to MPI). One rule for the bench (which communicators to make) and the harness (advice).
bool entry_uses_nccl(const json& entry);
// Finds a suite by name in `dirs` (name.json), or takes a path as is. InputError when absent.
std::filesystem::path resolve_suite(const std::string& name_or_path,
                                    const std::vector<std::filesystem::path>& dirs);

// Environment variable names: [A-Z_][A-Z0-9_]*. Values: no shell syntax ($ ` ; | & < > newline),
// because a value that looks like shell is a mistake or an attack even though we never use a shell.
bool is_safe_env_name(const std::string& name);
bool is_safe_env_value(const std::string& value);

// The limits a suite file must respect, in one place for the harness (which validates the whole
// suite before it takes the runner lock, fingerprints or launches anything) and the bench (which
// reads the same fields when it registers benchmarks). Both call these functions, so a suite the
// harness accepts is never refused by the bench for a limit, and the other way round.

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

// Advice about a suite that is valid but will measure less well than it could. Printed as
// warnings when the suite is launched; never a refusal.

// One sentence per problem, naming the suite and the entries concerned.
// - NCCL benchmarks beside p2p/devcopy entries: those fixtures launch fill, copy and check kernels
//   in the same process, and on H200 any kernel other than NCCL's puts all_gather/reduce_scatter
//   on per-process levels up to 8 % apart (docs/DESIGN.md, "The data check").
std::vector<std::string> suite_advice(const Suite& suite);

}  // namespace fabricgate
