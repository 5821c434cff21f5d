#include "harness/gate/runner_split.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/cluster/node_actions.hpp"
#include "harness/gate/drift.hpp"
#include "harness/gate/metric_judge.hpp"
#include "harness/gate/outcome.hpp"
#include "harness/gate/paired_check.hpp"
#include "harness/verdict/finding_ids.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::gate {

namespace {

bool beyond_fleet(const verdict::MetricJudgement& fleet, double value) {
  return !fleet.noisy && verdict_against_limits(fleet, value) == verdict::Verdict::regression;
}

// log(value / centre) for a higher-is-better metric, log(centre / value) for time: < 0 is slower.
double log_offset(const verdict::MetricJudgement& fleet, double value) {
  if (!(value > 0) || !(fleet.baseline_median > 0)) return 0;
  const double r = std::log(value / fleet.baseline_median);
  return verdict::metric_higher_is_better(fleet.metric) ? r : -r;
}

double offset_in_sds(const verdict::MetricJudgement& fleet, double value) {
  const double sd = fleet.between_sd > 0 ? fleet.between_sd : fleet.baseline_spread;
  return sd > 0 ? log_offset(fleet, value) / sd : 0;
}

std::string roofline_text(const verdict::KeyComparison& k) {
  if (!k.roofline || !(k.roofline->ceiling_GBps > 0)) return "";
  return fmt::format(", {:.0f} % of its {} roofline", 100 * k.roofline->fraction, k.roofline->tier);
}

std::string outlier_key_text(const verdict::KeyComparison& k,
                             const verdict::MetricJudgement& fleet) {
  const double value = fleet.current_median;
  return fmt::format("{} {} ({:+.1f} fleet SDs{})", k.key,
                     verdict::format_percent(std::exp(log_offset(fleet, value)) - 1),
                     offset_in_sds(fleet, value), roofline_text(k));
}

std::string keys_list(const std::vector<std::string>& items, std::size_t shown = 4) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < shown; ++i)
    out += (i == 0 ? "" : "; ") + items[i];
  if (items.size() > shown) out += fmt::format("; +{} more", items.size() - shown);
  return out;
}

std::string host_label(const verdict::Comparison& c) {
  return "host " + (c.host_id.empty() ? std::string("?") : c.host_id) +
         (c.host_name.empty() ? "" : " (" + c.host_name + ")");
}

// The paired check that would judge the change on this runner: the changed fabric settings
// (env/NCCL_*, OMPI_*, FI_*, UCX_*), the baseline's value as side A and this run's as side B. A
// setting one side did not have is unset=NAME on that side, so the command runs as printed in the
// job that ran this run.
std::string paired_check_command(const verdict::Comparison& c, const RunRecord& run) {
  const PairedCheckSides sides = paired_check_sides(c.fingerprint_changes);
  if (sides.a.empty()) return "";
  std::string cmd =
      "fabricgate ab --suite " + (run.suite.empty() ? std::string("<suite>") : run.suite);
  for (const std::string& item : sides.a) cmd += " --a " + item;
  for (const std::string& item : sides.b) cmd += " --b " + item;
  return cmd;
}

// A changed setup's key further below the fleet than any runner of the fleet has been
// (gross_change.hpp): the change, not the runner. nullopt: within the limit, or no limit.
std::optional<std::string> gross_change_reason(const verdict::Comparison& c,
                                               const verdict::KeyComparison& k,
                                               const verdict::MetricJudgement& fleet,
                                               const GrossChangeLimits* limits) {
  if (!limits || c.software_changes.empty()) return std::nullopt;
  const std::optional<double> limit = limits->limit_for(k.key);
  if (!limit) return std::nullopt;
  const double ratio = std::exp(log_offset(fleet, fleet.current_median));
  if (!(ratio < *limit)) return std::nullopt;
  const GrossChangeKey& seen = limits->keys.at(k.key);
  return fmt::format(
      "gross change: {} is at {:.3g}x the fleet centre on {}, below the gross-change limit {:.3g}x "
      "({} of the fleet's slowest A/A launch, {:.3g}x, over {} launches of {} host(s), {}), "
      "and the software changed ({}): the change, not the runner. Fleet judgement: {}",
      k.key, ratio, host_label(c), *limit, limits->factor, seen.slowest_ratio, seen.launches,
      seen.hosts, limits->source, c.software_changes.front(), k.reason);
}

// Why the change was not judged on a key of a host with no level of its own, and the way out.
std::string not_judged_reason(const verdict::Comparison& c, const verdict::KeyComparison& k,
                              const verdict::MetricJudgement& fleet, const RunRecord& run,
                              const GrossChangeLimits* limits) {
  std::string why = fmt::format(
      "not judged here: {} sits outside the fleet on {} ({:+.1f} fleet SDs), which "
      "has no level of its own yet (needs launches of this host in the store or "
      "baseline; see `fabricgate history`)",
      k.key, host_label(c), offset_in_sds(fleet, fleet.current_median));
  if (c.software_changes.empty()) {
    why += "; the software equals the baseline's, so the runner differs, not the change";
  } else {
    const std::string paired = paired_check_command(c, run);
    const bool limited = limits && limits->limit_for(k.key).has_value();
    why += "; the software changed too (" + c.software_changes.front() + ")" +
           (limited ? ", within the fleet's gross-change limit"
                    : ", and no gross-change limit covers this key") +
           ": runner and change cannot be told apart in this job. Judge the change with the paired "
           "check on this runner (" +
           (paired.empty() ? std::string("fabricgate ab --a <base> --b <candidate>") : paired) +
           "), or on a host with history; a change that cannot be switched inside one job "
           "(driver, kernel, firmware) needs a known host";
  }
  return why + ". Fleet judgement: " + k.reason;
}

}  // namespace

void split_change_and_runner(verdict::Comparison& c, const RunRecord& run,
                             const GrossChangeLimits* gross_change) {
  if (!c.has_baseline) return;
  c.gross_change_keys = 0;
  c.gross_change_source = gross_change ? gross_change->source : "";
  std::vector<std::string> outliers;
  bool outlier_confirmed = false;  // an outlying key judged around the host's own level
  std::vector<std::string> under_floor;
  for (verdict::KeyComparison& k : c.keys) {
    if (!k.judgement) continue;
    const verdict::MetricJudgement& fleet = k.fleet ? *k.fleet : *k.judgement;
    const bool was_failing = verdict::verdict_fails_gate(k.verdict);
    if (k.fleet) {
      k.outside_fleet = beyond_fleet(fleet, k.judgement->baseline_median) &&
                        beyond_fleet(fleet, k.judgement->current_median);
    } else {
      k.outside_fleet = k.verdict == verdict::Verdict::regression;
    }
    if (k.outside_fleet) {
      k.fleet_offset_sd = offset_in_sds(fleet, fleet.current_median);
      // A run that names no host (an import without a fingerprint) cannot be told from the
      // baseline's hosts: the fleet judges it, as before the two questions.
      if (c.gate == verdict::GateMode::change && !k.fleet &&
          k.verdict == verdict::Verdict::regression && !c.host_id.empty()) {
        if (auto gross = gross_change_reason(c, k, fleet, gross_change)) {
          k.reason = std::move(*gross);  // stays REGRESSION: no runner of the fleet was this far
          ++c.gross_change_keys;
        } else {
          k.reason = not_judged_reason(c, k, fleet, run, gross_change);
          k.verdict = verdict::Verdict::runner_differs;
        }
      }
      if (!(c.gate == verdict::GateMode::both && was_failing)) {
        outliers.push_back(outlier_key_text(k, fleet));
        // k.fleet: the key was judged around the host's own level, which lies outside the fleet.
        outlier_confirmed = outlier_confirmed || k.fleet.has_value();
      }
    }
    if (c.gate == verdict::GateMode::change && k.roofline &&
        k.roofline->status == roofline::Status::below_floor)
      under_floor.push_back(k.key + " " + k.roofline->text);
  }
  const bool runner_fails = c.gate != verdict::GateMode::change;
  if (!outliers.empty() && !c.host_id.empty()) {
    verdict::ClusterFinding f;
    f.id = verdict::finding_id::host_outlier;
    f.fails_gate = runner_fails;
    f.confirmed = outlier_confirmed;
    f.node = c.host_name;
    f.field = c.host_id;
    f.text = fmt::format("HOST-OUTLIER {}: {} key(s) outside the fleet the baseline describes: {}",
                         host_label(c), outliers.size(), keys_list(outliers));
    c.cluster_findings.insert(c.cluster_findings.begin(), std::move(f));
  }
  if (!under_floor.empty()) {
    verdict::ClusterFinding f;
    f.id = verdict::finding_id::below_roofline;
    f.fails_gate = false;  // --gate change only: the runner's, never the change's
    f.node = c.host_name;
    f.field = c.host_id;
    f.text = fmt::format("BELOW-ROOFLINE {}: {} key(s) under their roofline floor: {}",
                         host_label(c), under_floor.size(), keys_list(under_floor, 2));
    c.cluster_findings.push_back(std::move(f));
  }
  std::stable_sort(c.cluster_findings.begin(), c.cluster_findings.end(),
                   [](const verdict::ClusterFinding& a, const verdict::ClusterFinding& b) {
                     return a.fails_gate && !b.fails_gate;
                   });
  // A launch on a busy runner: its offset from the fleet may be the load's, never a reason to
  // drain the host (issue 55: a busy 2-core runner planned a Slurm DRAIN and three kubectl lines
  // for itself). Nor is an offset measured beside a software change: a fall-back to TCP makes
  // every host an outlier (`fabricgate nodes` holds back the same way). Findings of the hardware
  // itself (DEGRADED-LINK, a node mismatch) still act.
  c.node_actions = cluster::node_action_lines(
      cluster::plan_node_actions(actionable_findings(c), run.nodes, run.run_id));
  sort_by_urgency(c.keys);
}

std::vector<verdict::ClusterFinding> actionable_findings(const verdict::Comparison& c) {
  std::vector<verdict::ClusterFinding> actionable;
  for (const verdict::ClusterFinding& f : c.cluster_findings) {
    const bool held_back = f.id == verdict::finding_id::host_outlier &&
                           (measured_on_busy_runner(c) || !c.software_changes.empty());
    if (!held_back) actionable.push_back(f);
  }
  return actionable;
}

}  // namespace fabricgate::gate
