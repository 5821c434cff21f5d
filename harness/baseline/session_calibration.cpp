#include "harness/baseline/session_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "harness/baseline/baseline_builder.hpp"
#include "harness/baseline/baseline_sessions.hpp"
#include "harness/baseline/calibration.hpp"
#include "harness/gate/compare.hpp"
#include "harness/gate/confirmation.hpp"
#include "harness/gate/launch_band.hpp"
#include "harness/stats/binomial_bound.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::baseline {

namespace {

const MetricBaseline& judged_metric(const BaselineEntry& e) {
  if (e.metric == "busbw_GBps" && e.busbw_GBps) return *e.busbw_GBps;
  if (e.metric == "algbw_GBps") return e.algbw_GBps;
  return e.time_us;
}

std::set<std::string> failing_keys(const verdict::Comparison& c) {
  std::set<std::string> out;
  for (const verdict::KeyComparison& k : c.keys) {
    if (verdict::verdict_fails_gate(k.verdict) && !k.missing_because_incomplete) out.insert(k.key);
  }
  return out;
}

std::string session_pct(double fraction) { return fmt::format("{:.2f}%", fraction * 100); }

}  // namespace

double allowance_from_between_sds(std::span<const double> between_sds) {
  if (between_sds.empty()) return 0;
  // 1e-9: a percentile that is a whole percent in binary floating point stays that percent.
  return std::ceil(stats::nearest_rank_percentile(between_sds, 0.9) * 100 - 1e-9) / 100;
}

SessionCalibration calibrate_by_session(const std::vector<RunRecord>& runs,
                                        const TolerancePolicy& policy) {
  const std::vector<RunSession> per_run = sessions_of_runs(runs);
  const std::vector<BaselineSession> sessions = session_list(per_run);
  if (sessions.size() < 2) {
    throw InputError("--from", "",
                     "runs of at least 2 sessions (leave-one-session-out judges each session "
                     "with a baseline of the others), found " +
                         std::to_string(sessions.size()));
  }
  SessionCalibration out;
  out.runs = runs.size();
  out.sessions = sessions.size();
  out.hosts = hosts_of(sessions).size();
  out.between_estimated = sessions.size() >= static_cast<std::size_t>(policy.min_sessions);
  out.session_allowance = policy.session_allowance;
  const std::string now = utc_now_iso8601();

  BaselineBuildOptions all_options;
  all_options.now = now;
  all_options.policy = policy;
  const BuiltBaseline all = create_baseline(runs, all_options);
  const auto hosts = session_hosts(all.baseline);
  std::map<std::string, std::size_t> row_of;
  for (const auto& [key, e] : all.baseline.entries) {
    const gate::LaunchBand b =
        gate::session_band(all.baseline.policy, e, judged_metric(e), "", hosts);
    SessionKeyRow row;
    row.key = key;
    row.size_class = size_class_for(all.baseline.policy, e.bytes).name;
    row.metric = e.metric;
    row.sessions = b.sessions;
    row.hosts = b.hosts;
    row.launches = b.launches;
    row.within_sd = b.within_sd;
    row.between_sd = b.between_sd;
    row.between_estimated = b.between_estimated;
    row.band = b.half_width;
    row.mde = b.tolerance;
    row.noisy = b.noisy;
    row_of[key] = out.rows.size();
    out.rows.push_back(row);
  }

  for (const BaselineSession& s : sessions) {
    LeftOutSession lo{s.id, s.host, 0, 0, 0, ""};
    std::vector<RunRecord> others;
    std::vector<const RunRecord*> mine;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (per_run[i].id == s.id)
        mine.push_back(&runs[i]);
      else
        others.push_back(runs[i]);
    }
    lo.launches = mine.size();
    std::optional<BuiltBaseline> base;
    try {
      BaselineBuildOptions o;
      o.now = now;
      o.policy = policy;
      base = create_baseline(others, o);
    } catch (const InputError& e) {
      lo.skipped = std::string("no baseline from the other sessions: ") + e.what();
      out.left_out.push_back(lo);
      continue;
    }
    std::vector<verdict::Comparison> judged;
    judged.reserve(mine.size());
    for (const RunRecord* r : mine) judged.push_back(judge_aa_launch(*r, base->baseline));
    for (std::size_t i = 0; i < judged.size(); ++i) {
      const std::set<std::string> first = failing_keys(judged[i]);
      // The confirmations `run` would take: the next launch, and a later one not back-to-back
      // (three launches on, ~45 s in the device sessions; `--confirm-gap` is 30 s).
      const std::size_t max_keys = gate::ConfirmOptions{}.max_keys;
      const std::vector<std::string> asked = gate::keys_to_confirm(judged[i], max_keys);
      std::vector<gate::JudgedLaunch> later;
      for (const std::size_t j : {i + 1, i + 3}) {
        if (j < judged.size()) later.push_back({judged[j], mine[j]->source});
      }
      const verdict::Comparison confirmed =
          gate::apply_confirmations(judged[i], later, asked, max_keys);
      // Launches spent: the first; one confirmation when a key failed; a second when a key
      // failed (or could not be judged) in the first confirmation too.
      out.launches_spent += 1;
      if (!asked.empty() && !later.empty()) {
        out.launches_spent += 1;
        bool open = false;
        for (const verdict::KeyComparison& k : later.front().comparison->keys) {
          const bool was_asked = std::find(asked.begin(), asked.end(), k.key) != asked.end();
          open = open || (was_asked && gate::verdict_needs_confirmation(k.verdict));
        }
        if (open && later.size() > 1) out.launches_spent += 1;
      }
      const std::set<std::string> after = failing_keys(confirmed);
      ++out.judged;
      if (!first.empty()) {
        ++lo.failed;
        ++out.failed;
      }
      if (!after.empty()) {
        ++lo.failed_confirmed;
        ++out.failed_confirmed;
      }
      for (const std::string& k : first) {
        if (const auto it = row_of.find(k); it != row_of.end()) ++out.rows[it->second].loso_failed;
      }
      for (const std::string& k : after) {
        if (const auto it = row_of.find(k); it != row_of.end())
          ++out.rows[it->second].loso_failed_confirmed;
      }
    }
    out.left_out.push_back(lo);
  }
  if (out.between_estimated) {
    std::vector<double> between;
    for (const SessionKeyRow& r : out.rows) between.push_back(r.between_sd);
    out.between_sd_p90 = stats::nearest_rank_percentile(between, 0.9);
    out.suggested_allowance = allowance_from_between_sds(between);
  }
  out.upper95 = stats::binomial_upper_bound(out.failed, out.judged, 0.95);
  out.upper95_confirmed = stats::binomial_upper_bound(out.failed_confirmed, out.judged, 0.95);

  for (const SizeClass& c : all.baseline.policy.size_classes) {
    ClassMde m{c.name, 0, 0, 0, 0};
    std::vector<double> mdes;
    for (const SessionKeyRow& r : out.rows) {
      if (r.size_class != c.name) continue;
      ++m.keys;
      if (r.noisy) {
        ++m.noisy;
        continue;
      }
      mdes.push_back(r.mde);
    }
    if (!mdes.empty()) {
      m.median_mde = stats::median(mdes);
      m.max_mde = *std::max_element(mdes.begin(), mdes.end());
    }
    out.classes.push_back(m);
  }
  return out;
}

std::string render_session_calibration(const SessionCalibration& c) {
  std::string s = fmt::format("calibration by session: {} runs, {} sessions, {} hosts\n", c.runs,
                              c.sessions, c.hosts);
  if (!c.between_estimated) {
    s += fmt::format(
        "between-session term NOT estimated ({} sessions < min_sessions): the band uses "
        "session_allowance {} (log-scale SD) instead\n",
        c.sessions, session_pct(c.session_allowance));
  }
  s += fmt::format("\n{:<64} {:>7} {:>5} {:>5} {:>8} {:>8} {:>8} {:>8} {:>9}\n", "key", "sess",
                   "hosts", "runs", "within", "between", "band", "MDE", "LOSO fail");
  for (const SessionKeyRow& r : c.rows) {
    s += fmt::format("{:<64} {:>7} {:>5} {:>5} {:>8} {:>8}{} {:>8} {:>8} {:>4}/{:<4}{}\n", r.key,
                     r.sessions, r.hosts, r.launches, session_pct(r.within_sd),
                     session_pct(r.between_sd), r.between_estimated ? " " : "*",
                     session_pct(r.band), session_pct(r.mde), r.loso_failed,
                     r.loso_failed_confirmed, r.noisy ? " NOISY" : "");
  }
  s += "(* between term is the allowance, not an estimate; LOSO fail: first launch / after "
       "confirmation)\n";
  s += "\nleave one session out (baseline from the other sessions judges each launch):\n";
  for (const LeftOutSession& l : c.left_out) {
    if (!l.skipped.empty()) {
      s += fmt::format("  {:<48} host {:<12} skipped: {}\n", l.id, l.host, l.skipped);
      continue;
    }
    s += fmt::format("  {:<48} host {:<12} {:>3} launches: {:>3} fail, {:>3} after confirmation\n",
                     l.id, l.host, l.launches, l.failed, l.failed_confirmed);
  }
  const auto rate = [](std::size_t k, std::size_t n) {
    return n == 0 ? 0.0 : static_cast<double>(k) / static_cast<double>(n);
  };
  s += fmt::format(
      "false alarms: {} of {} launches ({}, 95 % upper bound {}) at the first launch; {} of {} "
      "({}, 95 % upper bound {}) after confirmation\n",
      c.failed, c.judged, session_pct(rate(c.failed, c.judged)), session_pct(c.upper95),
      c.failed_confirmed, c.judged, session_pct(rate(c.failed_confirmed, c.judged)),
      session_pct(c.upper95_confirmed));
  if (c.judged > 0)
    s += fmt::format("launches per gate (the first and the confirmations it needed): {:.2f}\n",
                     static_cast<double>(c.launches_spent) / static_cast<double>(c.judged));
  if (c.suggested_allowance) {
    s += fmt::format(
        "between-session SD over the {} keys: 90th percentile {} -> session_allowance {:.2f} for "
        "baselines of this kind with fewer than min_sessions sessions (harness/gate/README.md)\n",
        c.rows.size(), session_pct(*c.between_sd_p90), *c.suggested_allowance);
  }
  s += "\nMDE per size class (median / max over gateable keys):\n";
  for (const ClassMde& m : c.classes) {
    if (m.keys == 0) continue;
    s += fmt::format("  {:<10} {:>3} keys, {:>3} NOISY, MDE median {} max {}\n", m.name, m.keys,
                     m.noisy, session_pct(m.median_mde), session_pct(m.max_mde));
  }
  return s;
}

}  // namespace fabricgate::baseline
