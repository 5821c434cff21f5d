#pragma once
// The result of comparing one run with its baseline: plain data that renderers only read
// (console, markdown, JUnit, annotations, JSON all start from here).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "harness/model/run_record.hpp"
#include "harness/roofline/finding.hpp"
#include "harness/verdict/runner_evidence.hpp"
#include "harness/verdict/verdict.hpp"

namespace fabricgate::verdict {

enum class Metric { time_us, algbw_GBps, busbw_GBps };

// Which question the exit code answers (harness/gate/README.md "Two questions"):
//  change: did the change make this runner slower than it was? Judged against this host's own
//          history where it has one, else against the fleet; a key outside the fleet on a host
//          without history is RUNNER-DIFFERS (not judged here, exit 3), never a REGRESSION.
//          Runner findings (HOST-OUTLIER, roofline floors) are reported and do not fail.
//  fleet:  is this runner as fast as the fleet? Every key against the baseline's fleet (platform)
//          centre; HOST-OUTLIER and roofline floors fail.
//  both:   the change verdicts, and the runner findings fail too (the library's default, and the
//          verdicts before the two questions were told apart).
enum class GateMode { change, fleet, both };
const char* gate_mode_name(GateMode m);  // "change" | "fleet" | "both"
// Throws InputError naming `field` for anything else.
GateMode parse_gate_mode(const std::string& text, const std::string& field = "--gate");
const char* metric_name(Metric m);  // "time_us" ...
const char* metric_unit(Metric m);  // "us" | "GB/s"
bool metric_higher_is_better(Metric m);

// How the judged metric moved; filled for keys that had a baseline and comparable samples.
struct MetricJudgement {
  Metric metric = Metric::time_us;
  std::string size_class;
  std::string why_metric;  // e.g. "latency-bound size (P15)", "rank count differs (P04)"
  double baseline_median = 0;
  double current_median = 0;
  double performance_ratio = 1;  // > 1 better, < 1 worse (bandwidth now/base, time base/now)
  double tolerance = 0;          // fraction applied: max(static floor, prediction band)
  double static_tolerance = 0;   // the size class's (or key's) floor
  double baseline_spread = 0;    // launch-to-launch standard deviation of log launch medians
  double band = 0;               // prediction half-width for one launch (launch_band.hpp)
  std::size_t launches = 0;      // baseline launches behind the band
  bool band_calibrated = false;  // band from `fabricgate calibrate`
  bool noisy = false;  // band > policy max_band: not gated; fails only beyond this wide band
  // Fewer sittings than min_sessions behind the band: between-sitting noise unmeasured, not gated.
  bool between_unmeasured = false;
  double launch_cv = 0;  // robust CV of this launch's repetitions (0: fewer than 3)
  std::size_t repetitions = 0;
  // The band the verdict was decided with, in the metric's unit; reports draw exactly these.
  // Bandwidth: REGRESSION below lower_limit, IMPROVEMENT above upper_limit; time: the reverse.
  double lower_limit = 0;  // centre * (1 - tolerance)
  double upper_limit = 0;  // centre / (1 - tolerance)
  // Which centre and band judged, in words: the platform's or this host's, from how many sessions
  // and hosts, and whether the between-session term was estimated or an allowance stood in.
  std::string band_scope;
  // What the centre is: "fleet" (the baseline's platform centre), "host-baseline" (this host's
  // sessions in the baseline), "host-history" (this host's earlier launches in the store) or
  // "fleet-for-host" (a known host inside the fleet whose own band was NOISY: the fleet's judges
  // it, and its keys are judged for the change) or "host-anchor" (the host's first accepted level
  // failed a key its rolling level passed, or judged a key none of whose newer launches joined).
  std::string reference = "fleet";
  // The store taught this host a level further from the fleet than any host of the baseline
  // (harness/gate/stored_level_check.hpp): set aside, the fleet judged the key (band_scope says).
  bool stored_level_set_aside = false;
  double between_sd = 0;  // the band's between-session SD (log scale; the allowance if unmeasured)
};

// How the launch's tail (p99 / p50 of its time repetitions) compares with the baseline's launches
// of that ratio (harness/gate/metric_judge.hpp); the limits that judged are the ones reports show.
struct JitterJudgement {
  double ratio = 0;      // this launch's p99 / p50
  double centre = 0;     // geometric mean of the baseline's launch ratios
  double tolerance = 0;  // max(floor, band)
  double limit = 0;      // centre / (1 - tolerance): above it, JITTER
  std::size_t launches = 0;
  bool noisy = false;  // band wider than max_band: not judged
  bool over = false;   // ratio > limit and not noisy
};

// One later launch of a key that `fabricgate run` re-measured (confirmation.hpp).
struct ConfirmationResult {
  Verdict verdict = Verdict::pass;
  std::string reason;
  std::string source;           // the launch's directory
  std::optional<double> value;  // its launch median of the judged metric
};

// `fabricgate run` re-measures failing keys in later launches (confirmation.hpp).
struct Confirmation {
  Verdict first = Verdict::pass;
  std::string first_reason;
  std::vector<ConfirmationResult> later;  // empty: not re-measured (over the limit, not re-run)
  std::string rule;                       // the rule that decided the final verdict
  std::string decision;                   // one line: why the final verdict is what it is
};

struct Change {
  std::string what;  // "network", "transports", "gdrdma", "provider", "algo", "proto", ...
  std::string before;
  std::string after;
};

// What names a benchmark in a comparison; the gate's KeyComparison and the A/B's AbKey share it.
struct KeyIdentity {
  std::string key;
  std::string family;
  std::string backend;
  std::string op;
  std::uint64_t bytes = 0;
  int nranks = 0;

  // Takes `key` and the other fields from anything that carries them (a run's BenchmarkResult,
  // a BaselineEntry).
  template <typename Source>
  void identify(std::string name, const Source& s) {
    key = std::move(name);
    family = s.family;
    backend = s.backend;
    op = s.op;
    bytes = s.bytes;
    nranks = s.nranks;
  }
};

struct KeyComparison : KeyIdentity {
  Verdict verdict = Verdict::pass;
  std::string reason;  // one line: what happened, with numbers
  std::optional<MetricJudgement> judgement;
  // The same launch against the fleet (the baseline's platform centre) when `judgement` used this
  // host's own centre: the runner question (runner_split.hpp). Absent when `judgement` is the
  // fleet's already.
  std::optional<MetricJudgement> fleet;
  // Set by runner_split: this host sits outside the fleet on this key (its level and this launch
  // beyond the fleet band), by `fleet_offset_sd` fleet between-session SDs (negative: slower).
  bool outside_fleet = false;
  double fleet_offset_sd = 0;
  std::optional<JitterJudgement> jitter;  // absent: the baseline or the launch cannot judge it
  std::vector<Change> changes;            // algorithm/transport before -> after
  std::vector<Note> notes;  // PITFALLS notes from the run for this key, plus the gate's own
  std::optional<Confirmation> confirmation;
  bool missing_because_incomplete = false;
  // Figures for tables (0 / nullopt when absent).
  double time_us_now = 0;
  double time_us_baseline = 0;
  std::optional<double> busbw_now;
  std::optional<double> busbw_baseline;
  double algbw_now = 0;
  double algbw_baseline = 0;
  // What the hardware should do for this key, and how it was judged (harness/roofline); absent
  // when no roofline policy was found or the roofline does not describe the key.
  std::optional<roofline::RooflineFinding> roofline;
};

struct VersionChange {
  std::string component;  // nccl, driver, cuda_driver, cuda_runtime, mpi
  std::string before;
  std::string after;
};

// A finding about the cluster rather than one key (docs/MULTINODE.md): a node whose facts differ
// from the other nodes' (outliers.hpp), a node pair far below the others, a node that
// slows every pair it is in (outliers.hpp).
struct ClusterFinding {
  std::string id;  // "NODE-MISMATCH" | "SLOW-PAIR" | "SUSPECT-NODE"
  bool fails_gate = false;
  std::string node;   // the node named (a pair: "a+b")
  std::string field;  // the differing fact ("driver"), or the pair's key
  std::string text;   // one line for reports, with the values
  std::string key;    // STRAGGLER: the key with the strongest evidence ("" for other findings)
  // HOST-OUTLIER: the host's own level (its sessions in the baseline, or its earlier runs in the
  // store) is outside the fleet too, not only this launch: seen across sessions, not in one run.
  bool confirmed = false;
  // An active ack (harness/gate/acks.hpp) covers it: it fails nothing and plans no node action.
  bool acked = false;
};

// The per-rank timings of one key, shown where a STRAGGLER or JITTER points at it
// (docs/STRAGGLERS.md "Reading the per-rank table").
struct RankTable {
  std::string key;
  std::string why;  // "STRAGGLER rank 1" | "JITTER"
  std::vector<RankTiming> ranks;
};

struct VerdictCount {
  Verdict verdict;
  std::size_t count;
};

// Why the run's exit code is what it is. harness/gate/outcome.hpp settle_outcome records it once,
// at the end of the judgement; every printer reads it and decides nothing.
enum class OutcomeCause {
  pass,                     // exit 0, judged against a baseline
  no_baseline,              // exit 0, nothing gated against a baseline
  failed,                   // exit 1: a failing key or finding
  runner_busy,              // exit 3: every failure one a loaded host makes by itself
  runner_degraded,          // exit 3: slower than the host's own level, software unchanged
  runner_differs,           // exit 3: keys outside the fleet on a host with no history
  below_roofline_unjudged,  // exit 3: no baseline, keys under their roofline floor
  incomplete,               // exit 3: the run did not finish
};

// The change question's settled answer ("Change: ..." and the JSON `change.verdict`).
enum class ChangeAnswer {
  no_regression,    // PASS
  fail,             // FAIL
  no_baseline,      // NOT-JUDGED: nothing to compare with
  not_asked,        // NOT-ASKED: --gate fleet
  runner_busy,      // NOT-JUDGED: the load, not the change, may have cost it
  runner_degraded,  // NOT-JUDGED: software unchanged, the runner moved
  runner_differs,   // NOT-JUDGED: RUNNER-DIFFERS keys, no history to judge them against
};
const char* change_answer_word(ChangeAnswer a);  // PASS | FAIL | NOT-JUDGED | NOT-ASKED

// Everything settle_outcome decides beside the exit code, for the printers.
struct SettledOutcome {
  OutcomeCause cause = OutcomeCause::pass;
  ChangeAnswer change = ChangeAnswer::no_regression;
  std::size_t change_failing = 0;  // keys the change question fails
  // The runner question's answer: LIKE-FLEET | HOST-OUTLIER | DEGRADED-LINK | DEGRADED |
  // BUSY-GPU | BELOW-ROOFLINE | NOT-JUDGED.
  std::string runner = "LIKE-FLEET";
};

struct Comparison {
  std::string run_id;
  std::string run_started_at;  // the run's start, ISO 8601 UTC (CTRF's summary start)
  std::string platform;
  std::string run_source;
  std::string baseline_source;  // "" when there is no baseline
  bool has_baseline = false;
  std::string create_baseline_command;  // shown when there is no baseline
  std::string roofline_policy;          // "policies/roofline.json (2026-12-01)"; "" when none
  bool run_complete = true;
  std::string incomplete_reason;
  bool identity_forced = false;  // --force over a different identity
  std::vector<Change> identity_changes;
  std::vector<VersionChange> version_changes;
  // Every fingerprint field that differs, baseline -> run (fingerprint_changes.hpp); when nothing
  // could be compared, `fingerprint_note` says why (and `fingerprint_changes` is empty).
  std::vector<Change> fingerprint_changes;
  std::string fingerprint_note;
  Capture capture;
  std::vector<std::string> warnings;  // run-level, e.g. "transport not captured"
  std::string multiple_comparison;    // "holm" | "benjamini-hochberg"
  double alpha = 0;
  std::vector<KeyComparison> keys;               // sorted by verdict urgency, then key
  std::vector<ClusterFinding> cluster_findings;  // failing ones first
  std::vector<RankTable> rank_tables;            // keys a STRAGGLER or JITTER names, at most 8
  // What an admin does about the nodes blamed above (node_actions.hpp): "slurm: scontrol ...",
  // "kubernetes: kubectl ...", "# no action for ...".
  std::vector<std::string> node_actions;
  std::string confirmation_run;   // the confirmation launch's directory; "" when none was made
  std::string confirmation_note;  // e.g. "3 keys re-measured in a fresh launch; 1 confirmed"
  std::string node_layout;        // "2 nodes x 2 ranks (emulated on one host)"; "" for one node
  // The launching host's CPU pressure in the busiest launch judged (first or confirmation), and
  // whether it made the failing verdict "runner busy, not judged" (judge_run.hpp).
  std::optional<double> host_cpu_pressure;
  // The least busy of those launches: a failure is excused as "runner busy" only when every
  // judged launch was busy (a quiet launch beyond the band is the change's, or the runner's own).
  std::optional<double> quietest_cpu_pressure;
  bool runner_busy = false;
  double busy_threshold = 0;
  // Every failing key is slower than this host's own level with the software unchanged: the
  // runner degraded, the change is not blamed (exit 3, harness/gate/outcome.hpp).
  bool runner_degraded = false;
  // No baseline, --gate change, and keys under their roofline floor: the runner does less than
  // its hardware should, so nothing about the change can be read from it (exit 3). The keys, with
  // their link and fraction: "<key> <roofline text>".
  std::vector<std::string> below_roofline_unjudged;
  // The question the exit code answers, and the runner the run was measured on.
  GateMode gate = GateMode::both;
  std::string host_id;
  std::string host_name;
  // Software the change question compares with the baseline's (versions, NCCL_*/FI_*/UCX_*/OMPI_*
  // settings, nccl.conf): "nccl 2.27.3 -> 2.28.3". Empty: the same software as the baseline's.
  std::vector<std::string> software_changes;
  std::size_t host_history_launches = 0;  // this host's earlier launches the change question read
  // Keys a changed setup put beyond the gross-change limit (harness/gate/gross_change.hpp): the
  // change question answered without a level of the host's own; the file that set the limits.
  std::size_t gross_change_keys = 0;
  std::string gross_change_source;
  // The paired check on this runner that judged RUNNER-DIFFERS keys
  // (harness/gate/paired_check.hpp): its directory (empty: none ran), pairs, and how many keys it
  // found worse, within the tolerance, or left open; `paired_check_skipped` says why none ran where
  // one would have.
  std::string paired_check_dir;
  int paired_check_pairs = 0;
  std::size_t paired_check_worse = 0;
  std::size_t paired_check_within = 0;
  std::size_t paired_check_open = 0;
  std::string paired_check_skipped;
  RunnerEvidence runner_evidence;  // harness/gate/runner_evidence.hpp
  // Settled once by harness/gate/outcome.hpp (with runner_busy, runner_degraded and
  // below_roofline_unjudged above); the printers below read them as given.
  ExitCode exit_code = ExitCode::pass;
  SettledOutcome settled;

  std::vector<VerdictCount> counts() const;  // non-zero counts, in urgency order
  std::size_t failing_count() const;
  std::size_t failing_findings() const;      // cluster findings that fail the gate
  std::size_t gated_count() const;           // keys judged against the baseline (the verdict table)
  std::size_t warning_count() const;         // keys whose verdict warns (UNSTABLE, AMBIGUOUS)
  std::size_t runner_differs_count() const;  // keys not judged here (RUNNER-DIFFERS)
  std::size_t outside_fleet_count() const;
  std::string headline() const;  // e.g. "FAIL: 2 of 40 keys fail the gate (1 REGRESSION, ...)"
  // The two questions in one line each: "Change: ..." and "Runner: ..." (every format shows them
  // under the headline).
  std::string change_line() const;
  std::string runner_line() const;
};

}  // namespace fabricgate::verdict
