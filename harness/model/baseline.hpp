#pragma once
// The baseline file baselines/<platform>.json (schema fabricgate.baseline/3; /1 and /2 are read) as
// plain data.
// A baseline is reviewed in pull requests, so it carries the thresholds the gate applies
// (tolerance policy) next to the numbers: changing a threshold is a visible data change.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/benchmark_result.hpp"
#include "harness/model/fingerprint_detail.hpp"

namespace fabricgate {

inline constexpr const char* kBaselineSchema = "fabricgate.baseline/3";
// Written before sessions and hosts were recorded: every launch median counts as one unknown
// session.
inline constexpr const char* kBaselineSchemaV2 = "fabricgate.baseline/2";
// Written before the launch-based band (launch_band.hpp): read with the band settings' defaults.
inline constexpr const char* kBaselineSchemaV1 = "fabricgate.baseline/1";

enum class MultipleComparison { holm, benjamini_hochberg };

// One band of message sizes with its own static tolerance (P15: small messages are latency-bound
// and noisier, so they get wider tolerances and are judged on time, not bandwidth).
struct SizeClass {
  std::string name;
  std::optional<std::uint64_t> below_bytes;  // upper bound (exclusive); absent = no bound
  double tolerance = 0.05;                   // fraction, e.g. 0.05 = 5 %
  bool judged_on_latency = false;            // true: time_us; false: busbw (or algbw)

  bool operator==(const SizeClass&) const = default;
};

struct TolerancePolicy {
  // The A/B gate's (fabricgate ab, ab_compare.hpp) test level, correction and tolerance rule.
  double alpha = 0.05;
  MultipleComparison correction = MultipleComparison::benjamini_hochberg;
  double spread_multiplier = 3.0;  // A/B: k in tol = max(static, k x spread of side A)
  double max_tolerance = 0.5;      // A/B: cap
  // The run gate's prediction band over launch medians (harness/gate/launch_band.hpp):
  // launch_alpha is the rate the gate is built for: the chance that an A/A launch fails on ANY
  // key. A launch judges every key of the baseline at once, so each key's band gets
  // launch_alpha / keys (Bonferroni; for "does this launch fail" Holm's step-down gives the same
  // answer). band_alpha is that per-key level, derived from launch_alpha whenever the key count is
  // known (set_family_size); a file without launch_alpha keeps its band_alpha as written.
  std::optional<double> launch_alpha = 0.01;
  double band_alpha = 0.01;   // one-sided miss rate of the band for one new launch of one key
  double max_band = 0.25;     // wider bands cannot gate anything useful: the key is NOISY
  double unstable_cv = 0.25;  // robust CV of one launch's repetitions above which it is UNSTABLE
  // Launch medians kept per key by `baseline update` (rolling): whole sessions leave from the
  // oldest, never below min_sessions; create/grow raise it to the launches they read.
  int window = 20;
  int min_runs = 3;  // launches needed per key to create/update/load a baseline
  // Two noise levels (harness/stats/variance_components.hpp). With fewer than min_sessions
  // sessions the between-session term is not estimated: session_allowance (a log-scale SD, 0.02
  // ~ 2 %) stands in for it. A host with >= host_min_sessions sessions in the baseline is judged
  // against its own centre and band (harness/gate/launch_band.hpp).
  double session_allowance = 0.02;
  int min_sessions = 3;
  int host_min_sessions = 3;
  // DRIFT (harness/gate/drift.hpp): recent runs on a level worse by more than drift_threshold,
  // for at least drift_min_runs runs, fail even when each run passed. Optional in the file.
  double drift_threshold = 0.02;
  int drift_min_runs = 3;
  // A busy runner (harness/gate/judge_run.hpp): a load-made failure on a launch whose host had a
  // task waiting for a CPU more than this share of the time is "not judged" (exit 3); 1 turns the
  // rule off. Optional in the file.
  double busy_cpu_pressure = 0.25;
  std::vector<SizeClass> size_classes;  // ordered by below_bytes; the last has no bound

  // small < 64 KiB: 10 % on time; medium < 16 MiB: 5 %; large: 3 % (catches a 5 % regression).
  static TolerancePolicy defaults();
  bool operator==(const TolerancePolicy&) const = default;
};

// band_alpha = launch_alpha / keys (at least one key); no change when launch_alpha is absent.
void set_family_size(TolerancePolicy& policy, std::size_t keys);

// Which size class of the policy a message size falls in (its static floor and whether it is
// judged on latency or bandwidth, P15): the launch band, the tolerance and the A/B gate need it.
const SizeClass& size_class_for(const TolerancePolicy& policy, std::uint64_t bytes);

// Median, pooled repetition samples and one median per merged run, for one metric.
struct MetricBaseline {
  double median = 0;
  std::vector<double> samples;
  std::vector<double> run_medians;
  // Session id per launch median (parallel to run_medians); empty in /1 and /2 files, where all
  // launches count as one unknown session.
  std::vector<std::string> run_sessions;
};

// Launches of one host less than this many minutes apart are one sitting: one session of the
// baseline, whatever `run` invocations made them (harness/baseline/baseline_sessions.hpp).
inline constexpr int kSittingGapMinutes = 30;

// One sitting whose launches the baseline holds: runs of a host less than kSittingGapMinutes
// apart (harness/baseline/baseline_sessions.hpp); its id is the first run's session id.
struct BaselineSession {
  std::string id;
  std::string host;        // host id (harness/model/host_identity.hpp)
  std::string started_at;  // ISO 8601 UTC
  int launches = 0;        // runs of this session merged

  bool operator==(const BaselineSession&) const = default;
};

struct BaselineHost {
  std::string id;
  int sessions = 0;

  bool operator==(const BaselineHost&) const = default;
};

// A band measured by `fabricgate calibrate` from A/A launches (more launches than the baseline
// keeps): when present it replaces the half-width computed from `run_medians`.
struct CalibratedBand {
  double half_width = 0;  // relative, before the size class's floor
  int launches = 0;       // A/A launches it was computed from
  double launch_cv = 0;   // their launch-to-launch coefficient of variation
  std::string date;       // ISO 8601 UTC

  bool operator==(const CalibratedBand&) const = default;
};

// The names of a record's Choice that a baseline expects (the counts do not matter).
struct ExpectedChoice {
  std::set<std::string> algo;
  std::set<std::string> proto;
  std::set<std::string> channels;
};

// The names a measured choice used: those with a count > 0.
ExpectedChoice names_used(const Choice& choice);

struct ExpectedTransport {
  bool known = false;  // false when the baseline runs captured nothing (capture path "none")
  std::string network;
  std::set<std::string> transports;
  bool gdrdma = false;
  std::string provider;  // params.provider of libfabric results
};

struct BaselineProvenance {
  std::map<std::string, std::string> versions;  // nccl, driver, cuda_driver, cuda_runtime, mpi
  std::string date;                             // ISO 8601 UTC of the merge
  std::string git_commit;
  std::vector<std::string> run_ids;
  int runs_merged = 0;
};

struct BaselineEntry {
  std::string key;
  std::string family;
  std::string backend;
  std::string op;
  std::uint64_t bytes = 0;
  int nranks = 0;
  int gpus_per_process = 1;
  std::string metric;  // the metric the gate judges: "busbw_GBps" | "algbw_GBps" | "time_us"
  MetricBaseline time_us;
  MetricBaseline algbw_GBps;
  std::optional<MetricBaseline> busbw_GBps;  // collectives only
  // One value per launch: p99 / p50 of the launch's time_us repetitions (JITTER, metric_judge.hpp).
  // Absent in files written before it was kept, and where a launch had too few repetitions.
  std::optional<MetricBaseline> time_jitter;
  std::optional<ExpectedChoice> choice;  // absent when NCCL's choice was not captured
  ExpectedTransport transport;
  std::optional<double> tolerance;  // per-key static tolerance overriding the size class
  std::optional<CalibratedBand> band;
  BaselineProvenance provenance;
};

struct Baseline {
  std::string source;  // file it was read from
  std::string platform;
  nlohmann::json identity = nlohmann::json::object();  // fingerprint identity
  // The newest merged run's fingerprint detail, so that compare can say what changed since; empty
  // in baselines written before it was kept (optional in the file).
  FingerprintDetail fingerprint_detail;
  int gpus_per_process = 1;
  std::string created_at;
  std::string updated_at;
  BaselineProvenance provenance;  // of the latest create/update
  TolerancePolicy policy = TolerancePolicy::defaults();
  std::vector<BaselineSession> sessions;         // ordered by started_at; empty in /1 and /2 files
  std::vector<BaselineHost> hosts;               // derived from sessions, written for the reader
  std::map<std::string, BaselineEntry> entries;  // ordered: stable files, reviewable diffs
};

// The host of each session id, from baseline.sessions.
std::map<std::string, std::string> session_hosts(const Baseline& baseline);
// hosts[] from sessions[] (sorted by id).
std::vector<BaselineHost> hosts_of(const std::vector<BaselineSession>& sessions);

Baseline load_baseline(const std::filesystem::path& path);
Baseline parse_baseline(const nlohmann::json& doc, const std::string& origin);
nlohmann::json baseline_to_json(const Baseline& baseline);
// Atomic: on any error the previous file is left as it was.
void save_baseline(const std::filesystem::path& path, const Baseline& baseline);

const char* multiple_comparison_name(MultipleComparison m);

}  // namespace fabricgate
