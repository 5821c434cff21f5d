#include "harness/baseline/baseline_window.hpp"

#include "harness/verdict/verdict_table.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "core/errors.hpp"
#include "harness/baseline/baseline_sessions.hpp"
#include "harness/gate/compare.hpp"
#include "harness/gate/fingerprint_guard.hpp"
#include "harness/gate/metric_judge.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::baseline {

namespace {

void require_mergeable(const Baseline& old, const std::vector<RunRecord>& runs) {
  if (runs.empty()) throw InputError("--from", "", "at least one run to merge");
  std::set<std::string> ids;
  for (const RunRecord& r : runs) {
    if (!r.complete) {
      throw InputError(
          r.source, "/complete",
          "a complete run (cannot merge an incomplete run: " + r.incomplete_reason + ")");
    }
    if (!ids.insert(r.run_id).second)
      throw InputError(r.source, "/run_id", "each run once (run " + r.run_id + " given twice)");
    for (const std::string& id : old.provenance.run_ids) {
      if (id == r.run_id)
        throw InputError(r.source, "/run_id",
                         "a run not yet in the baseline (" + r.run_id + " is)");
    }
    if (r.platform != old.platform) {
      throw InputError(r.source, "/platform",
                       "\"" + old.platform + "\" like the baseline, found \"" + r.platform + "\"");
    }
  }
}

std::vector<double> values_of(const std::vector<double>& samples, double reported) {
  return samples.empty() ? std::vector<double>{reported} : samples;
}

std::size_t session_count(const std::vector<std::string>& run_sessions) {
  return std::set<std::string>(run_sessions.begin(), run_sessions.end()).size();
}

// Appends one launch of `session` and keeps at most `window` launches, dropping WHOLE sessions
// from the oldest: a session cut in half would leave a between-session estimate from one or two
// of its launches. Sessions are never dropped below `min_sessions`: a window that would keep fewer
// would silently trade the measured between-session term for the allowance (a 25-launch GPU
// session fills a window of 20 on its own), so such a key keeps more than `window` launches. A
// single session larger than the window loses its oldest launches.
// Samples keep about as many launches' worth, trimmed from the oldest (the file does not say where
// one launch's samples end).
void add_launch(MetricBaseline& m, const std::vector<double>& values, const std::string& session,
                std::size_t window, std::size_t min_sessions) {
  const double per_launch = m.run_medians.empty() ? static_cast<double>(values.size())
                                                  : static_cast<double>(m.samples.size()) /
                                                        static_cast<double>(m.run_medians.size());
  m.run_medians.push_back(stats::median(values));
  m.run_sessions.push_back(session);
  m.samples.insert(m.samples.end(), values.begin(), values.end());
  while (m.run_medians.size() > window && m.run_sessions.front() != session &&
         session_count(m.run_sessions) > min_sessions) {
    const std::string oldest = m.run_sessions.front();
    std::size_t n = 0;
    while (n < m.run_sessions.size() && m.run_sessions[n] == oldest) ++n;
    m.run_medians.erase(m.run_medians.begin(), m.run_medians.begin() + static_cast<long>(n));
    m.run_sessions.erase(m.run_sessions.begin(), m.run_sessions.begin() + static_cast<long>(n));
  }
  // One session larger than the window: its oldest launches go.
  if (m.run_medians.size() > window && session_count(m.run_sessions) == 1) {
    const auto extra = static_cast<long>(m.run_medians.size() - window);
    m.run_medians.erase(m.run_medians.begin(), m.run_medians.begin() + extra);
    m.run_sessions.erase(m.run_sessions.begin(), m.run_sessions.begin() + extra);
  }
  const auto keep = static_cast<std::size_t>(
      std::max(1.0, per_launch * static_cast<double>(m.run_medians.size()) + 0.5));
  if (m.samples.size() > keep)
    m.samples.erase(m.samples.begin(), m.samples.end() - static_cast<long>(keep));
  m.median = stats::median(m.run_medians);
}

// A /1 or /2 baseline's launch medians carry no session: before tagged launches join them they
// become one session of unknown host, so the file stays one consistent shape.
void tag_untagged(MetricBaseline& m, const std::string& legacy) {
  if (m.run_sessions.size() != m.run_medians.size())
    m.run_sessions.assign(m.run_medians.size(), legacy);
}

// The sessions still referenced by some key, with their launch counts as merged.
std::vector<BaselineSession> referenced_sessions(const Baseline& b,
                                                 const std::vector<BaselineSession>& known) {
  std::set<std::string> used;
  for (const auto& [key, e] : b.entries)
    used.insert(e.time_us.run_sessions.begin(), e.time_us.run_sessions.end());
  std::vector<BaselineSession> out;
  for (const BaselineSession& s : known) {
    if (used.count(s.id)) out.push_back(s);
  }
  return out;
}

bool mergeable(verdict::Verdict v) { return verdict::facts_of(v).joins_window; }

}  // namespace

WindowUpdate update_baseline_window(const Baseline& old, const std::vector<RunRecord>& runs,
                                    const std::string& now) {
  require_mergeable(old, runs);
  WindowUpdate out;
  Baseline& b = out.built.baseline;
  b = old;
  b.updated_at = now;
  const auto window = static_cast<std::size_t>(old.policy.window);
  const auto min_sessions = static_cast<std::size_t>(std::max(old.policy.min_sessions, 1));
  const std::vector<RunSession> run_sessions = sessions_of_runs(runs);
  std::vector<BaselineSession> known = b.sessions;
  const std::string legacy =
      "legacy-before-" + (old.updated_at.empty() ? std::string("unknown") : old.updated_at);
  bool legacy_used = false;
  for (const BaselineSession& s : session_list(run_sessions)) {
    const auto it = std::find_if(known.begin(), known.end(),
                                 [&](const BaselineSession& k) { return k.id == s.id; });
    if (it == known.end())
      known.push_back(s);
    else
      it->launches += s.launches;
  }
  std::set<std::string> new_keys;
  for (std::size_t run_index = 0; run_index < runs.size(); ++run_index) {
    const RunRecord& run = runs[run_index];
    const std::string& session = run_sessions[run_index].id;
    const verdict::Comparison c =
        gate::compare_run(run, &old, gate::CompareOptions{});  // identity, P02: InputError
    std::map<std::string_view, const BenchmarkResult*> results;
    for (const BenchmarkResult& r : run.benchmarks) results.emplace(r.key, &r);
    for (const verdict::KeyComparison& k : c.keys) {
      if (k.verdict == verdict::Verdict::new_key) {
        new_keys.insert(k.key);
        continue;
      }
      if (k.verdict == verdict::Verdict::missing || k.verdict == verdict::Verdict::skipped)
        continue;
      if (!mergeable(k.verdict) || !k.judgement) {
        out.not_merged.push_back(k.key + ": run " + run.run_id + ": " +
                                 verdict::verdict_name(k.verdict) + " (" + k.reason + ")");
        continue;
      }
      const auto found = results.find(k.key);
      const BenchmarkResult* r = found == results.end() ? nullptr : found->second;
      auto entry = b.entries.find(k.key);
      if (!r || entry == b.entries.end() || r->nranks != entry->second.nranks)
        continue;  // P04 matches stay apart
      BaselineEntry& e = entry->second;
      for (MetricBaseline* m : {&e.time_us, &e.algbw_GBps}) {
        legacy_used = legacy_used || m->run_sessions.size() != m->run_medians.size();
        tag_untagged(*m, legacy);
      }
      if (e.busbw_GBps) tag_untagged(*e.busbw_GBps, legacy);
      add_launch(e.time_us, values_of(r->samples.time_us, r->time_us), session, window,
                 min_sessions);
      add_launch(e.algbw_GBps, values_of(r->samples.algbw_GBps, r->algbw_GBps), session, window,
                 min_sessions);
      if (e.busbw_GBps && r->busbw_GBps)
        add_launch(*e.busbw_GBps, values_of(r->samples.busbw_GBps, *r->busbw_GBps), session, window,
                   min_sessions);
      // JITTER's reference stays parallel to the other metrics' launches: a launch without a
      // p99/p50 of its own ends it (the file would otherwise judge a subset it does not name).
      if (e.time_jitter) {
        tag_untagged(*e.time_jitter, legacy);
        if (const auto jitter = gate::launch_jitter(*r)) {
          add_launch(*e.time_jitter, {*jitter}, session, window, min_sessions);
        } else {
          e.time_jitter.reset();
        }
      }
      e.provenance.run_ids.push_back(run.run_id);
      const std::size_t kept = e.time_us.run_medians.size();  // the window, or more (add_launch)
      if (e.provenance.run_ids.size() > kept) {
        e.provenance.run_ids.erase(e.provenance.run_ids.begin(),
                                   e.provenance.run_ids.end() - static_cast<long>(kept));
      }
      e.provenance.runs_merged = static_cast<int>(e.time_us.run_medians.size());
      e.provenance.date = now;
      e.provenance.versions = gate::run_versions(run);
      ++out.launches_merged;
    }
  }
  if (!new_keys.empty()) {
    if (runs.size() >= static_cast<std::size_t>(old.policy.min_runs)) {
      BaselineBuildOptions o;
      o.now = now;
      o.policy = old.policy;
      BuiltBaseline fresh = create_baseline(runs, o);
      for (auto& [key, e] : fresh.baseline.entries) {
        if (new_keys.count(key)) b.entries.emplace(key, std::move(e));
      }
      for (const std::string& l : fresh.left_out) {
        if (new_keys.count(l.substr(0, l.find(": ")))) out.built.left_out.push_back(l);
      }
    } else {
      for (const std::string& key : new_keys) {
        out.built.left_out.push_back(key + ": new key, measured in " + std::to_string(runs.size()) +
                                     " run(s) (needs " + std::to_string(old.policy.min_runs) +
                                     " to enter the baseline)");
      }
    }
  }
  if (legacy_used) {
    known.insert(known.begin(),
                 BaselineSession{legacy, "", old.created_at, old.provenance.runs_merged});
  }
  // Keys that kept untagged launches (none of this update's launches merged into them) are tagged
  // too when the file lists sessions at all: run_sessions is all-or-nothing per file.
  if (legacy_used) {
    for (auto& [key, e] : b.entries) {
      tag_untagged(e.time_us, legacy);
      tag_untagged(e.algbw_GBps, legacy);
      if (e.busbw_GBps) tag_untagged(*e.busbw_GBps, legacy);
      if (e.time_jitter) tag_untagged(*e.time_jitter, legacy);
    }
  }
  b.sessions = referenced_sessions(b, known);
  b.hosts = hosts_of(b.sessions);
  b.provenance.date = now;
  for (const RunRecord& r : runs) b.provenance.run_ids.push_back(r.run_id);
  std::size_t kept = window;
  for (const auto& [key, e] : b.entries) kept = std::max(kept, e.time_us.run_medians.size());
  if (b.provenance.run_ids.size() > kept) {
    b.provenance.run_ids.erase(b.provenance.run_ids.begin(),
                               b.provenance.run_ids.end() - static_cast<long>(kept));
  }
  b.provenance.runs_merged += static_cast<int>(runs.size());
  b.provenance.versions = gate::run_versions(runs.back());
  set_family_size(b.policy, b.entries.size());
  b.fingerprint_detail = runs.back().fingerprint.detail;
  return out;
}

}  // namespace fabricgate::baseline
