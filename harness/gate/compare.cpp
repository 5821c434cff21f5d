#include "harness/gate/compare.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/key_parts.hpp"
#include "harness/cluster/node_actions.hpp"
#include "harness/cluster/outliers.hpp"
#include "harness/gate/fingerprint_guard.hpp"
#include "harness/gate/host_history.hpp"
#include "harness/gate/metric_judge.hpp"
#include "harness/gate/outcome.hpp"
#include "harness/gate/roofline_verdicts.hpp"
#include "harness/gate/route_checks.hpp"
#include "harness/gate/wire_notes.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/verdict/finding_ids.hpp"
#include "harness/verdict/fingerprint_changes.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::gate {

namespace fs = std::filesystem;

namespace {

std::string plain_percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100); }

std::string describe_changes(const std::string& prefix,
                             const std::vector<verdict::Change>& changes) {
  std::string out = prefix;
  for (std::size_t i = 0; i < changes.size(); ++i) {
    out += (i == 0 ? ": " : "; ") + changes[i].what + " " + changes[i].before + " -> " +
           changes[i].after;
  }
  return out;
}

// The key with its "/ranks:N" part made generic: the same benchmark at another rank count (P04).
std::string without_rank_count(const std::string& key) {
  return BenchmarkKey::parse(key).with("ranks", "*").text();
}

verdict::KeyComparison start_key(const BenchmarkResult& r) {
  verdict::KeyComparison k;
  k.identify(r.key, r);
  k.notes = r.notes;
  k.time_us_now = r.time_us;
  k.busbw_now = r.busbw_GBps;
  k.algbw_now = r.algbw_GBps;
  return k;
}

void fill_baseline_figures(verdict::KeyComparison& k, const BaselineEntry& e) {
  k.time_us_baseline = e.time_us.median;
  k.algbw_baseline = e.algbw_GBps.median;
  if (e.busbw_GBps) k.busbw_baseline = e.busbw_GBps->median;
}

std::string first_error_note(const BenchmarkResult& r) {
  for (const Note& n : r.notes) {
    if (n.level == "error") return n.id + ": " + n.text;
  }
  return {};
}

// Verdicts that need no baseline, or that pre-empt the numbers. Returns true when decided.
bool decide_without_numbers(const BenchmarkResult& r, verdict::KeyComparison& k) {
  if (r.has_error_note()) {
    k.verdict = verdict::Verdict::invalid;
    k.reason =
        verdict::format_bytes(r.bytes) + ": invalid measurement (" + first_error_note(r) + ")";
  } else if (r.status == ResultStatus::error) {
    k.verdict = verdict::Verdict::invalid;
    k.reason = verdict::format_bytes(r.bytes) +
               ": benchmark failed: " + (r.message.empty() ? "no message" : r.message);
  } else if (r.status == ResultStatus::wrong) {
    k.verdict = verdict::Verdict::wrong_results;
    k.reason = verdict::format_bytes(r.bytes) + ": wrong results (" +
               std::to_string(r.wrong_elements) + " elements differ)" +
               (r.message.empty() ? "" : ": " + r.message);
  } else if (r.status == ResultStatus::skipped) {
    k.verdict = verdict::Verdict::skipped;
    k.reason = r.message.empty() ? "skipped" : "skipped: " + r.message;
  } else {
    return false;
  }
  return true;
}

// Route checks (P02 per key, P05/P06, P19). Returns true when a failing verdict was decided.
bool decide_route(const RunRecord& run, const BenchmarkResult& r, const BaselineEntry& e,
                  verdict::KeyComparison& k) {
  if ((r.gpus_per_process > 1) != (e.gpus_per_process > 1)) {
    k.verdict = verdict::Verdict::invalid;
    k.reason = "GPUs per process " + std::to_string(e.gpus_per_process) + " -> " +
               std::to_string(r.gpus_per_process) + ": not comparable (P02)";
    return true;
  }
  std::string unknown_note;
  const auto transport = transport_changes(e.transport, observed_transport(run, r), unknown_note);
  if (!unknown_note.empty()) k.notes.push_back({"P05", "warn", unknown_note});
  std::vector<verdict::Change> channels;
  std::vector<verdict::Change> choice;
  if (e.choice && r.choice) {
    choice = choice_changes(*e.choice, observed_choice(*r.choice), channels);
  } else if (e.choice && !r.choice) {
    k.notes.push_back({"P19", "warn", "NCCL's algorithm choice not captured; P19 not checked"});
  }
  for (const verdict::Change& c : channels) {
    k.notes.push_back({"P19", "warn", "channels " + c.before + " -> " + c.after});
  }
  k.changes = transport;
  k.changes.insert(k.changes.end(), choice.begin(), choice.end());
  if (!transport.empty()) {
    k.verdict = verdict::Verdict::transport_changed;
    k.reason = describe_changes(verdict::format_bytes(r.bytes) + ": transport changed (P05/P06)",
                                transport);
    if (!choice.empty()) k.reason += describe_changes("; NCCL choice changed too (P19)", choice);
  } else if (!choice.empty()) {
    k.verdict = verdict::Verdict::algo_changed;
    k.reason =
        describe_changes(verdict::format_bytes(r.bytes) + ": NCCL choice changed (P19)", choice);
  }
  return !transport.empty() || !choice.empty();
}

void apply_guard(const RunRecord& run, const Baseline& baseline, const CompareOptions& options,
                 verdict::Comparison& c) {
  require_run_platform(run, baseline, options.force_platform);
  require_same_gpus_per_process(run, baseline);
  if (!run.fingerprint.present || baseline.identity.empty()) {
    c.warnings.push_back("fingerprint identity not checked: " +
                         std::string(run.fingerprint.present ? "baseline" : "run") +
                         " has no fingerprint identity");
  } else {
    c.identity_changes = identity_differences(baseline.identity, run.fingerprint.identity);
  }
  if (!c.identity_changes.empty()) {
    if (!options.force) {
      throw InputError(run.source, "/fingerprint/identity",
                       describe_changes("the identity of baseline " + baseline.source +
                                            " (a different machine; use --force to compare anyway)",
                                        c.identity_changes));
    }
    c.identity_forced = true;
    c.warnings.push_back(
        describe_changes("identity differs from the baseline (forced)", c.identity_changes));
  }
  c.version_changes = version_differences(baseline.provenance.versions, run_versions(run));
  verdict::FingerprintChanges fp = verdict::fingerprint_changes(
      baseline.fingerprint_detail, run.fingerprint.detail, verdict::kBaselineWithoutDetail,
      "run has no fingerprint detail");
  c.fingerprint_changes = std::move(fp.changes);
  c.fingerprint_note = std::move(fp.note);
  c.software_changes = software_changes(c.version_changes, c.fingerprint_changes);
}

// The name the machine goes by (Slurm and Kubernetes know it so): the fingerprint's host name.
std::string host_name_of(const RunRecord& run) {
  const nlohmann::json& fp = run.fingerprint.document;
  const nlohmann::json::json_pointer p("/host/hostname");
  return fp.is_object() && fp.contains(p) && fp.at(p).is_string() ? fp.at(p).get<std::string>()
                                                                  : std::string();
}

bool verdict_order(const verdict::KeyComparison& a, const verdict::KeyComparison& b) {
  if (a.verdict != b.verdict) return a.verdict < b.verdict;
  if (a.key != b.key) return a.key < b.key;
  return false;
}

// Header fields of the comparison, and the identity/platform guard when there is a baseline.
verdict::Comparison start_comparison(const RunRecord& run, const Baseline* baseline,
                                     const CompareOptions& options, const TolerancePolicy& policy) {
  verdict::Comparison c;
  c.gate = options.gate;
  c.host_id = run.host_id;
  c.host_name = host_name_of(run);
  c.host_history_launches = options.host_history ? options.host_history->runs : 0;
  c.run_id = run.run_id;
  c.run_started_at = run.started_at;
  c.platform = run.platform;
  c.run_source = run.source;
  c.run_complete = run.complete;
  c.host_cpu_pressure = run.host_cpu_pressure;
  c.quietest_cpu_pressure = run.host_cpu_pressure;
  c.incomplete_reason = run.incomplete_reason;
  c.capture = run.capture;
  c.has_baseline = baseline != nullptr;
  c.multiple_comparison = policy.launch_alpha
                              ? "bonferroni: launch_alpha " + plain_percent(*policy.launch_alpha) +
                                    " over the baseline's keys, one prediction band per key"
                              : std::string("none: one prediction band per key");
  c.alpha = policy.band_alpha;
  if (baseline) {
    c.baseline_source = baseline->source;
    apply_guard(run, *baseline, options, c);
  } else {
    c.create_baseline_command = create_baseline_command(
        run, locate_baseline(kBaselinesDir, run.platform, run.suite, scenario_variant(run.scenario))
                 .path);
    c.fingerprint_note = "no baseline to compare the fingerprint with";
  }
  return c;
}

// P04: a run at another rank count is compared key by key on elapsed time. The baseline's keys by
// their rank-free shape; a shape measured at several rank counts is ambiguous (nullptr), not used.
class BaselineMatcher {
 public:
  explicit BaselineMatcher(const Baseline* baseline) : baseline_(baseline) {
    if (!baseline_) return;
    for (const auto& [key, e] : baseline_->entries) {
      auto [it, inserted] = by_shape_.emplace(without_rank_count(key), &key);
      if (!inserted) it->second = nullptr;
    }
  }

  struct Match {
    const BaselineEntry* entry = nullptr;
    bool other_rank_count = false;
  };

  // The baseline entry to judge `r` against: its own key, or the same shape at another rank
  // count (noted on `k`, P04).
  Match find(const BenchmarkResult& r, verdict::KeyComparison& k) {
    if (!baseline_) return {};
    if (auto it = baseline_->entries.find(r.key); it != baseline_->entries.end())
      return {&it->second, false};
    auto shape = by_shape_.find(without_rank_count(r.key));
    if (shape == by_shape_.end() || !shape->second) return {};
    const auto& [base_key, base_entry] = *baseline_->entries.find(*shape->second);
    if (base_entry.nranks == r.nranks) return {};
    matched_at_other_rank_count_.insert(base_key);
    k.notes.push_back(
        {"P04", "note",
         "compared with " + base_key + " (" + std::to_string(base_entry.nranks) +
             " ranks) on elapsed time; busbw of different rank counts is not comparable"});
    return {&base_entry, true};
  }

  bool matched_at_other_rank_count(const std::string& key) const {
    return matched_at_other_rank_count_.count(key) > 0;
  }

 private:
  const Baseline* baseline_;
  std::unordered_map<std::string, const std::string*> by_shape_;
  std::unordered_set<std::string_view> matched_at_other_rank_count_;
};

// Decides one measured key, or leaves it for the numbers: returns true when k awaits judge_metric's
// verdict (given after all keys, verdict_from_judgement).
bool compare_key(const RunRecord& run, const BenchmarkResult& r,
                 const BaselineMatcher::Match& match, const TolerancePolicy& policy,
                 const JudgedHost& host, verdict::KeyComparison& k) {
  if (match.entry) fill_baseline_figures(k, *match.entry);
  if (decide_without_numbers(r, k)) {
    // The baseline only holds keys that were measured cleanly, so a skip here means something
    // the platform could do is gone (a libfabric provider no longer offered, a GPU not seen):
    // passing it would hide exactly the fallback the gate exists to catch.
    if (k.verdict == verdict::Verdict::skipped && match.entry && !match.other_rank_count) {
      k.verdict = verdict::Verdict::missing;
      k.reason = verdict::format_bytes(r.bytes) + ": measured in the baseline, " + k.reason +
                 " in this run";
    }
    return false;
  }
  if (!match.entry) {
    k.verdict = verdict::Verdict::new_key;
    k.reason = verdict::format_bytes(r.bytes) + ": not in the baseline";
    return false;
  }
  // (At another rank count NCCL may rightly choose another algorithm (P19): only time is judged.)
  if (!match.other_rank_count && decide_route(run, r, *match.entry, k)) return false;
  k.judgement = judge_metric(r, *match.entry, policy, host);
  // This host's own level judged the change: the fleet's centre answers the runner question.
  if (k.judgement->reference != "fleet") k.fleet = judge_metric(r, *match.entry, policy, {});
  if (!match.other_rank_count) k.jitter = judge_jitter(r, *match.entry, policy, host);
  if (k.judgement->metric == verdict::Metric::time_us && r.nranks != match.entry->nranks &&
      !match.other_rank_count) {
    k.notes.push_back({"P04", "note", k.judgement->why_metric});
  }
  return true;
}

void give_judged_verdict(verdict::KeyComparison& k, const TolerancePolicy& policy) {
  k.verdict = verdict_from_judgement(*k.judgement, policy);
  k.reason = describe_judgement(*k.judgement, k.bytes);
  if (k.verdict == verdict::Verdict::unmeasured) {
    k.reason += fmt::format(
        "; not gated: between-sitting noise unmeasured (the baseline's launches come from fewer "
        "than min_sessions {} sittings; a sitting is launches less than {} minutes apart): grow "
        "or update it with launches of other sittings",
        policy.min_sessions, kSittingGapMinutes);
  } else if (k.verdict == verdict::Verdict::noisy) {
    k.reason += "; launch-to-launch noise wider than the policy's max_band " +
                plain_percent(policy.max_band) +
                ": informational, fails only beyond this wide band";
  } else if (k.verdict == verdict::Verdict::regression && k.judgement->noisy) {
    k.reason += "; NOISY (band wider than the policy's max_band " + plain_percent(policy.max_band) +
                "), and beyond even that band: a gross loss";
  } else if (k.verdict == verdict::Verdict::unstable) {
    k.reason += "; this launch's repetitions disagree (CV above unstable_cv " +
                plain_percent(policy.unstable_cv) + "): not judged";
  }
  // The median passed; a tail beyond the baseline's launches warns (metric_judge.hpp).
  const bool passed =
      k.verdict == verdict::Verdict::pass || k.verdict == verdict::Verdict::improvement;
  if (passed && k.jitter && k.jitter->over) {
    k.verdict = verdict::Verdict::jitter;
    k.reason += "; " + describe_jitter(*k.jitter);
  }
}

// Baseline keys this run did not measure (nor matched at another rank count) are missing.
void add_missing_keys(const RunRecord& run, const Baseline& baseline,
                      const BaselineMatcher& matcher, verdict::Comparison& c) {
  std::unordered_set<std::string_view> present;
  present.reserve(run.benchmarks.size());
  for (const BenchmarkResult& r : run.benchmarks) present.insert(r.key);
  for (const auto& [key, e] : baseline.entries) {
    if (present.count(key) || matcher.matched_at_other_rank_count(key)) continue;
    verdict::KeyComparison k;
    k.identify(key, e);
    k.verdict = verdict::Verdict::missing;
    fill_baseline_figures(k, e);
    k.missing_because_incomplete = !run.complete;
    k.reason = verdict::format_bytes(e.bytes) + ": in the baseline but not in this run" +
               (run.complete ? "" : " (the run is incomplete)");
    c.keys.push_back(std::move(k));
  }
}

// "2 nodes x 8 ranks (8 GPUs per node), facts of 2 nodes compared"; "" for one node.
std::string describe_node_layout(const RunRecord& run) {
  if (run.launch.nodes <= 1 && run.nodes.size() <= 1) return {};
  const int k = std::max<int>(run.launch.nodes, static_cast<int>(run.nodes.size()));
  std::string out = std::to_string(k) + " nodes";
  if (run.launch.ranks_per_node > 0)
    out += " x " + std::to_string(run.launch.ranks_per_node) + " ranks";
  if (run.launch.gpus_per_node > 0)
    out += " (" + std::to_string(run.launch.gpus_per_node) + " GPUs per node)";
  if (run.launch.nodes_emulated) out += ", emulated on one host (NCCL_HOSTID per node)";
  out += run.nodes.empty() ? ", node facts not gathered"
                           : ", facts of " + std::to_string(run.nodes.size()) + " nodes compared";
  return out;
}

// Whole-cluster findings: nodes that differ from the majority, pairs/nodes far below the rest.
void add_cluster_findings(const RunRecord& run, verdict::Comparison& c) {
  c.cluster_findings = cluster::check_cluster_consistency(run.nodes);
  for (verdict::ClusterFinding& f : cluster::find_pair_outliers(run.benchmarks))
    c.cluster_findings.push_back(std::move(f));
  for (verdict::ClusterFinding& f : cluster::find_stragglers(run.benchmarks))
    c.cluster_findings.push_back(std::move(f));
  std::stable_sort(c.cluster_findings.begin(), c.cluster_findings.end(),
                   [](const verdict::ClusterFinding& a, const verdict::ClusterFinding& b) {
                     return a.fails_gate && !b.fails_gate;
                   });
  c.node_actions = cluster::node_action_lines(
      cluster::plan_node_actions(c.cluster_findings, run.nodes, run.run_id));
}

// The per-rank tables of the keys a STRAGGLER or JITTER names (bounded: a report stays short).
void add_rank_tables(const RunRecord& run, verdict::Comparison& c) {
  constexpr std::size_t kMaxTables = 8;
  std::map<std::string, const BenchmarkResult*> by_key;
  for (const BenchmarkResult& r : run.benchmarks) by_key.emplace(r.key, &r);
  const auto add = [&](const std::string& key, const std::string& why) {
    const auto found = by_key.find(key);
    if (found == by_key.end() || found->second->ranks.empty()) return;
    for (verdict::RankTable& t : c.rank_tables) {
      if (t.key == key) {
        t.why += ", " + why;
        return;
      }
    }
    if (c.rank_tables.size() < kMaxTables)
      c.rank_tables.push_back({key, why, found->second->ranks});
  };
  for (const verdict::ClusterFinding& f : c.cluster_findings) {
    if (f.id == verdict::finding_id::straggler)
      add(f.key, std::string(verdict::finding_id::straggler) + " " + f.field);
  }
  for (const verdict::KeyComparison& k : c.keys) {
    if (k.verdict == verdict::Verdict::jitter) add(k.key, "JITTER");
  }
}

// Sorts an index, then moves each KeyComparison once: cheaper than swapping the large structs.
void sort_by_verdict(std::vector<verdict::KeyComparison>& keys) {
  std::vector<std::size_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return verdict_order(keys[a], keys[b]); });
  std::vector<verdict::KeyComparison> sorted;
  sorted.reserve(keys.size());
  for (const std::size_t i : order) sorted.push_back(std::move(keys[i]));
  keys = std::move(sorted);
}

}  // namespace

verdict::Comparison compare_keys(const RunRecord& run, const Baseline* baseline,
                                 const CompareOptions& options) {
  const TolerancePolicy policy = baseline ? baseline->policy : TolerancePolicy::defaults();
  verdict::Comparison c = start_comparison(run, baseline, options, policy);
  c.keys.reserve(run.benchmarks.size() + (baseline ? baseline->entries.size() : 0));
  std::vector<std::size_t> judged;  // indices into c.keys awaiting their verdict from the numbers
  BaselineMatcher matcher(baseline);
  // The judged host's own sessions judge it when the baseline holds enough of them.
  const std::map<std::string, std::string> hosts_of_sessions =
      baseline ? session_hosts(*baseline) : std::map<std::string, std::string>{};
  // --gate fleet asks only how this runner compares with the fleet: the platform centre judges.
  const JudgedHost host =
      options.gate == verdict::GateMode::fleet
          ? JudgedHost{}
          : JudgedHost{run.host_id, &hosts_of_sessions, options.host_history, options.host_anchor};
  for (const BenchmarkResult& r : run.benchmarks) {
    verdict::KeyComparison k = start_key(r);
    const BaselineMatcher::Match match = matcher.find(r, k);
    if (compare_key(run, r, match, policy, host, k)) judged.push_back(c.keys.size());
    c.keys.push_back(std::move(k));
  }
  for (const std::size_t i : judged) give_judged_verdict(c.keys[i], policy);
  if (baseline) add_missing_keys(run, *baseline, matcher, c);
  add_multinode_notes(run, c);
  add_wire_spec_notes(run, c);
  if (const auto roof = roofline::find_roofline_policy(run.platform, options.roofline_dirs))
    // Under --gate change a roofline floor is about the runner: a note and a runner finding
    // (runner_split.hpp), never a failing key.
    add_roofline_verdicts(run, *roof, c, options.gate != verdict::GateMode::change);
  c.node_layout = describe_node_layout(run);
  add_cluster_findings(run, c);
  sort_by_verdict(c.keys);
  add_rank_tables(run, c);
  return c;
}

verdict::Comparison compare_run(const RunRecord& run, const Baseline* baseline,
                                const CompareOptions& options) {
  verdict::Comparison c = compare_keys(run, baseline, options);
  settle_outcome(c);
  return c;
}

fs::path baseline_path_for(const RunRecord& run, const std::string& explicit_file,
                           const fs::path& baselines_dir) {
  // run.platform passed require_safe_name, so it cannot climb out of baselines_dir.
  return choose_baseline(explicit_file, baselines_dir, {run.platform, run.suite, run.scenario})
      .path;
}

std::optional<Baseline> find_baseline(const RunRecord& run, const std::string& explicit_file,
                                      const fs::path& baselines_dir) {
  std::error_code ec;
  const fs::path path = baseline_path_for(run, explicit_file, baselines_dir);
  if (!fs::exists(path, ec)) {
    if (!explicit_file.empty())
      throw InputError(path.string(), "",
                       "no such file (--baseline must name an existing baseline)");
    return std::nullopt;
  }
  return load_baseline(path);
}

std::string create_baseline_command(const RunRecord& run, const fs::path& out) {
  // No launch count is suggested: min_runs launches make a file, not a gate; `baseline grow`,
  // `baseline create` and `baseline status` say per key how many launches make it gateable here.
  const std::string here = run.directory.empty() ? run.source : run.directory;
  // A launch that `run` recorded (<results>/<platform>/<id>-<suite>-default) has its siblings
  // beside it: `baseline grow` reads them all, waits for enough sessions and keys, then proposes.
  const fs::path dir(run.directory);
  if (!run.directory.empty() && dir.has_parent_path() &&
      dir.parent_path().filename() == run.platform &&
      dir.filename().string().ends_with("-" + run.suite + "-default")) {
    const fs::path results = dir.parent_path().parent_path();
    return "fabricgate baseline grow --results-dir " + (results.empty() ? "." : results.string()) +
           " --suite " + run.suite + " --out " + out.string();
  }
  return "fabricgate baseline create --from " + here + " --from <another run of " + run.platform +
         "> ... --out " + out.string();
}

}  // namespace fabricgate::gate
