#pragma once
// The A/B upgrade gate (`fabricgate ab`): side A and side B (NCCL libraries, environment sets)
// were launched interleaved, A B A B ..., each launch a fresh process. Per key, the per-repetition
// samples of every complete pair are pooled per side and B is compared with A as a ratio: the
// Hodges-Lehmann estimate with its distribution-free confidence interval (shift_estimate.hpp),
// widened to cover the pairs' own interval (launch-to-launch drift, Student's t on the per-pair
// median ratios).
// A key FAILs when the whole interval is worse than 1 - tolerance and PASSes only when the whole
// interval lies above 1 - tolerance; otherwise it is UNDECIDED (ab_sequential.hpp adds pairs). A
// side whose launches sit on two levels (two_levels.hpp) is BIMODAL, never a pass. Route
// differences (algorithm, protocol, channels, transport, libfabric provider) and what changed
// between the sides (variables, NCCL version and library) are listed. Plain data and pure
// functions: reports only read this.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/ab/ab_interval.hpp"
#include "harness/ab/ab_verdict.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::ab {

// /2: sequential pairs (min/max pairs, per-key pairs_needed and stop_reason), PASS only when the
// whole interval lies above 1 - tolerance (AMBIGUOUS became UNDECIDED), two-level sides, wrap.
inline constexpr const char* kAbSchema = "fabricgate.ab/2";

// One side as the user specified it (parsed from --a / --b by harness/launch/ab_spec).
struct AbSide {
  std::string id;                          // "a" | "b"
  std::string label;                       // shown in reports ("A", "B" unless label=NAME)
  std::vector<std::string> items;          // as given, for the report
  std::map<std::string, std::string> env;  // set for every rank (NAME=VALUE items)
  std::set<std::string> unset;             // unset for every rank (unset=NAME items)
  std::string nccl;                        // nccl=PATH as given; "" = whatever the machine loads
  std::string nccl_dir;                    // directory prepended to LD_LIBRARY_PATH
  std::string nccl_expected;               // real path of the libnccl.so.2 the loader must pick
  // wrap=CMD: the side's ranks run `CMD... fabricgate-bench ...` (numactl, taskset, a container
  // entry point); CMD split on blanks, its program resolved to an absolute path. Empty: none.
  std::vector<std::string> wrap;
};

// What one launch really loaded: the bench's records header and rank table, and NCCL's log.
struct LoadedLibraries {
  std::string nccl_version;              // ncclGetVersion in the bench ("" without NCCL)
  std::set<std::string> nccl_libraries;  // real path of the libnccl each rank loaded
  std::string capture_nccl_version;  // "NCCL version ..." in NCCL's log ("" when not initialised)
  std::set<std::string> capture_nccl_versions_full;  // more than one: ranks disagree
  std::string mpi_version;
};

struct AbLaunch {
  RunRecord run;
  LoadedLibraries libraries;
};

struct AbPair {
  int index = 0;  // 1-based, in launch order
  AbLaunch a;
  AbLaunch b;
};

// The side's items as they may be published: NAME=<redacted> for credential-like variables.
std::vector<std::string> recordable_items(const AbSide& side);

// Two levels of one side's launch medians (harness/stats/two_levels.hpp), for the report.
struct AbLevels {
  bool found = false;
  double low = 0;  // launch-median levels of the judged metric
  double high = 0;
  std::size_t low_count = 0;
  std::size_t high_count = 0;
  double separation = 0;
};

struct AbKey : verdict::KeyIdentity {
  AbVerdict verdict = AbVerdict::pass;
  std::string reason;  // one line with the numbers
  verdict::Metric metric = verdict::Metric::time_us;
  std::string why_metric;
  std::size_t samples_a = 0;
  std::size_t samples_b = 0;
  double median_a = 0;  // pooled medians of the judged metric
  double median_b = 0;
  AbInterval ratio;         // metric B / metric A: the hull of the two below
  AbInterval pooled_ratio;  // Hodges-Lehmann over every repetition (the repetitions' noise)
  AbInterval paired_ratio;  // over the pairs' log median ratios (the launches' drift): Student's t,
                            // then Hodges-Lehmann with its signed-rank interval (ab_compare.cpp)
  AbInterval performance;   // > 1: B better (the ratio for bandwidth, its inverse for time)
  double tolerance = 0;
  double static_tolerance = 0;
  double spread_a = 0;              // A's relative spread (repetitions and launch-to-launch)
  std::vector<double> pair_ratios;  // per compared pair: median B / median A of the metric
  AbLevels levels_a;                // two states among A's launches (found = false: one level)
  AbLevels levels_b;
  int pairs_needed = 0;     // pairs compared when the verdict was reached (sequential design)
  std::string stop_reason;  // why this key's verdict is final, or why it is still open
  std::vector<verdict::Change>
      route_changes;  // A -> B: provider, network, transports, gdrdma, algo, proto, channels
  std::vector<std::string> notes;
};

struct AbVerdictCount {
  AbVerdict verdict;
  std::size_t count;
};

struct AbLaunchRef {
  std::string name;  // "a-1", "b-1", ...
  std::string dir;
  bool complete = false;
};

struct AbComparison {
  std::string command = "ab";  // what made it: "ab", or "compare --against" (existing runs)
  std::string run_id;
  std::string suite;
  std::string platform;
  std::string directory;
  AbSide a;
  AbSide b;
  LoadedLibraries libraries_a;  // from the first compared pair
  LoadedLibraries libraries_b;
  std::vector<verdict::Change>
      side_changes;  // what differs between the sides: variables, NCCL, MPI, capture
  // Every fingerprint field that differs between the first compared pair's A and B launches
  // (fingerprint_changes.hpp); `fingerprint_note` says why when nothing could be compared.
  std::vector<verdict::Change> fingerprint_changes;
  std::string fingerprint_note;
  int pairs_requested = 0;     // the most pairs the design allows (--max-pairs)
  int min_pairs = 0;           // the first look (--min-pairs)
  double look_confidence = 0;  // confidence of each look's interval (alpha split over the looks)
  bool decided = false;        // every key has a final verdict: no more pairs are needed
  std::string stop_reason;     // why the series stopped (or "running")
  std::vector<int> pairs_compared;
  std::vector<AbLaunchRef> launches;
  bool complete = true;
  std::string incomplete_reason;
  double confidence = 0.95;
  std::string tolerance_source;
  std::vector<std::string> warnings;
  std::vector<AbKey> keys;  // by urgency, then key
  ExitCode exit_code = ExitCode::pass;

  std::vector<AbVerdictCount> counts() const;
  std::size_t failing_count() const;
  std::size_t not_decided_count() const;  // UNDECIDED and TWO-STATES keys
  std::string headline() const;           // "FAIL: 2 of 24 keys: B worse than A (2 FAIL)"
};

struct AbOptions {
  TolerancePolicy policy = TolerancePolicy::defaults();
  std::optional<double> tolerance;  // one tolerance for every key instead of the policy
  double confidence = 0.95;
  std::string tolerance_source = "default tolerance policy";
  int pairs_requested = 0;
  std::string incomplete_reason;  // why fewer pairs than requested were compared ("" = all ran)
};

// Compares the complete pairs in one look at `options.confidence`. Exit code: 1 when a key
// fails; else 3 when a key is not decided or the series is incomplete; else 0.
AbComparison compare_ab(const AbSide& a, const AbSide& b, const std::vector<AbPair>& pairs,
                        const AbOptions& options);

// 1 when a key fails; else 3 when a key is not decided or the series is incomplete; else 0.
ExitCode ab_exit_code(const AbComparison& c);

}  // namespace fabricgate::ab
