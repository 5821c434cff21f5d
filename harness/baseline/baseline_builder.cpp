#include "harness/baseline/baseline_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <set>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "harness/baseline/baseline_sessions.hpp"
#include "harness/gate/fingerprint_guard.hpp"
#include "harness/gate/metric_judge.hpp"
#include "harness/gate/route_checks.hpp"
#include "harness/gate/tolerance.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::baseline {

namespace {

void require_runs(const std::vector<RunRecord>& runs, int min_runs) {
  if (runs.size() < static_cast<std::size_t>(min_runs)) {
    throw InputError("a baseline needs at least " + std::to_string(min_runs) +
                     " runs (repeat the run so that run-to-run noise is measured); got " +
                     std::to_string(runs.size()));
  }
  std::set<std::string> ids;
  for (const RunRecord& r : runs) {
    if (!r.complete) {
      throw InputError(
          r.source, "/complete",
          "a complete run (cannot baseline an incomplete run: " + r.incomplete_reason + ")");
    }
    if (!ids.insert(r.run_id).second) {
      throw InputError(r.source, "/run_id", "each run once (run " + r.run_id + " given twice)");
    }
  }
}

// All runs must be the same machine and mode as `reference`.
void require_same_platform(const std::vector<RunRecord>& runs, const std::string& platform,
                           const nlohmann::json& identity, int gpus_per_process) {
  for (const RunRecord& r : runs) {
    if (r.platform != platform) {
      throw InputError(r.source, "/platform",
                       "\"" + platform + "\" like the other runs, found \"" + r.platform + "\"");
    }
    const auto changes = gate::identity_differences(identity, r.fingerprint.identity);
    if (!changes.empty()) {
      throw InputError(r.source, "/fingerprint/identity/" + changes.front().what,
                       "\"" + changes.front().before + "\" like the other runs, found \"" +
                           changes.front().after + "\"");
    }
    if ((r.launch.gpus_per_process > 1) != (gpus_per_process > 1)) {
      throw InputError(r.source, "/launch/gpus_per_process",
                       "the same GPUs-per-process mode as the other runs (P02)");
    }
  }
}

struct Contribution {
  const RunRecord* run;
  const BenchmarkResult* result;
  std::string session;  // sessions_of_runs
};

std::vector<double> values_or_median(const std::vector<double>& samples, double reported) {
  return samples.empty() ? std::vector<double>{reported} : samples;
}

MetricBaseline merge_metric(const std::vector<Contribution>& parts,
                            std::vector<double> (*pick)(const BenchmarkResult&)) {
  MetricBaseline m;
  for (const Contribution& c : parts) {
    const std::vector<double> values = pick(*c.result);
    m.run_medians.push_back(stats::median(values));
    m.run_sessions.push_back(c.session);
    m.samples.insert(m.samples.end(), values.begin(), values.end());
  }
  m.median = stats::median(m.run_medians);  // median of run medians: one bad run cannot drag it
  return m;
}

std::string joined_commits(const std::vector<Contribution>& parts) {
  std::set<std::string> commits;
  for (const Contribution& c : parts) {
    auto it = c.run->metadata.find("git_commit");
    if (it != c.run->metadata.end() && !it->second.empty()) commits.insert(it->second);
  }
  std::string out;
  for (const std::string& s : commits) out += (out.empty() ? "" : ",") + s;
  return out;
}

BaselineEntry build_entry(const std::string& key, const std::vector<Contribution>& parts,
                          const TolerancePolicy& policy, const std::string& now) {
  const BenchmarkResult& first = *parts.front().result;
  BaselineEntry e;
  e.key = key;
  e.family = first.family;
  e.backend = first.backend;
  e.op = first.op;
  e.bytes = first.bytes;
  e.nranks = first.nranks;
  e.gpus_per_process = first.gpus_per_process;
  e.time_us = merge_metric(parts, [](const BenchmarkResult& r) {
    return values_or_median(r.samples.time_us, r.time_us);
  });
  e.algbw_GBps = merge_metric(parts, [](const BenchmarkResult& r) {
    return values_or_median(r.samples.algbw_GBps, r.algbw_GBps);
  });
  bool all_busbw = true;
  for (const Contribution& c : parts) all_busbw = all_busbw && c.result->busbw_GBps.has_value();
  if (all_busbw) {
    e.busbw_GBps = merge_metric(parts, [](const BenchmarkResult& r) {
      return values_or_median(r.samples.busbw_GBps, *r.busbw_GBps);
    });
  }
  // JITTER's reference: one p99/p50 per launch, kept only when every launch has one (a band from
  // some of the launches would judge against a subset the file does not name).
  bool all_jitter = true;
  for (const Contribution& c : parts) all_jitter = all_jitter && gate::launch_jitter(*c.result);
  if (all_jitter) {
    e.time_jitter = merge_metric(parts, [](const BenchmarkResult& r) {
      return std::vector<double>{*gate::launch_jitter(r)};
    });
  }
  e.metric = verdict::metric_name(
      gate::default_metric(policy, e.bytes, e.busbw_GBps.has_value(), e.algbw_GBps.median > 0));
  e.transport = gate::observed_transport(*parts.front().run, first);
  for (const Contribution& c : parts) {
    const ExpectedTransport t = gate::observed_transport(*c.run, *c.result);
    std::string ignored;
    const auto changes = gate::transport_changes(e.transport, t, ignored);
    if (!changes.empty()) {
      throw InputError(c.run->source, "/capture",
                       "the same transport as run " + parts.front().run->run_id + " for " + key +
                           " (" + changes.front().what + " " + changes.front().before + " vs " +
                           changes.front().after + "): one of the runs fell back (P05/P06)");
    }
    if (c.result->choice) {
      const ExpectedChoice seen = gate::observed_choice(*c.result->choice);
      if (!e.choice) e.choice = ExpectedChoice{};
      e.choice->algo.insert(seen.algo.begin(), seen.algo.end());
      e.choice->proto.insert(seen.proto.begin(), seen.proto.end());
      e.choice->channels.insert(seen.channels.begin(), seen.channels.end());
    }
  }
  e.provenance.versions = gate::run_versions(*parts.back().run);
  e.provenance.date = now;
  e.provenance.git_commit = joined_commits(parts);
  for (const Contribution& c : parts) e.provenance.run_ids.push_back(c.run->run_id);
  e.provenance.runs_merged = static_cast<int>(parts.size());
  return e;
}

// Entries for every key measured cleanly (status ok, no PITFALLS error) in >= min_runs runs.
std::map<std::string, BaselineEntry> build_entries(const std::vector<RunRecord>& runs,
                                                   const std::vector<RunSession>& sessions,
                                                   const TolerancePolicy& policy,
                                                   const std::string& now,
                                                   std::vector<std::string>& left_out) {
  std::map<std::string, std::vector<Contribution>> by_key;
  std::set<std::string> all_keys;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (const BenchmarkResult& r : runs[i].benchmarks) {
      all_keys.insert(r.key);
      if (r.status == ResultStatus::ok && !r.has_error_note())
        by_key[r.key].push_back({&runs[i], &r, sessions[i].id});
    }
  }
  std::map<std::string, BaselineEntry> entries;
  for (const std::string& key : all_keys) {
    auto it = by_key.find(key);
    const std::size_t clean = it == by_key.end() ? 0 : it->second.size();
    if (clean < static_cast<std::size_t>(policy.min_runs)) {
      left_out.push_back(key + ": measured cleanly in " + std::to_string(clean) + " of " +
                         std::to_string(runs.size()) + " runs (needs " +
                         std::to_string(policy.min_runs) + ")");
      continue;
    }
    entries.emplace(key, build_entry(key, it->second, policy, now));
  }
  return entries;
}

BaselineProvenance merged_provenance(const std::vector<RunRecord>& runs, const std::string& now) {
  BaselineProvenance p;
  p.versions = gate::run_versions(runs.back());
  p.date = now;
  std::set<std::string> commits;
  for (const RunRecord& r : runs) {
    p.run_ids.push_back(r.run_id);
    auto it = r.metadata.find("git_commit");
    if (it != r.metadata.end() && !it->second.empty()) commits.insert(it->second);
  }
  for (const std::string& s : commits) p.git_commit += (p.git_commit.empty() ? "" : ",") + s;
  p.runs_merged = static_cast<int>(runs.size());
  return p;
}

}  // namespace

std::string utc_now_iso8601() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::vector<RunRecord> quiet_runs(const std::vector<RunRecord>& runs, double busy_threshold,
                                  std::vector<std::string>& left_out) {
  std::vector<RunRecord> out;
  for (const RunRecord& r : runs) {
    if (busy_threshold > 0 && r.host_cpu_pressure && *r.host_cpu_pressure > busy_threshold) {
      left_out.push_back(fmt::format(
          "{}: measured on a busy runner (a task waited for a CPU {:.0f} % of the launch, over "
          "busy_cpu_pressure {:.0f} %)",
          r.source.empty() ? r.run_id : r.source, 100 * *r.host_cpu_pressure,
          100 * busy_threshold));
      continue;
    }
    out.push_back(r);
  }
  return out;
}

BuiltBaseline create_baseline(const std::vector<RunRecord>& runs,
                              const BaselineBuildOptions& options) {
  require_runs(runs, options.policy.min_runs);
  const RunRecord& first = runs.front();
  require_same_platform(runs, first.platform, first.fingerprint.identity,
                        first.launch.gpus_per_process);
  BuiltBaseline out;
  Baseline& b = out.baseline;
  b.platform = options.platform.empty() ? first.platform : options.platform;
  require_safe_name(b.platform, "--platform", "");
  b.identity = first.fingerprint.identity;
  b.fingerprint_detail = runs.back().fingerprint.detail;
  b.gpus_per_process = first.launch.gpus_per_process;
  b.created_at = options.now;
  b.updated_at = options.now;
  b.policy = options.policy;
  // The window holds every launch the file is built from: a smaller one would make the first
  // `baseline update` discard sessions the between-session term was measured from.
  b.policy.window = std::max(b.policy.window, static_cast<int>(runs.size()));
  b.provenance = merged_provenance(runs, options.now);
  const std::vector<RunSession> sessions = sessions_of_runs(runs);
  b.sessions = session_list(sessions);
  b.hosts = hosts_of(b.sessions);
  b.entries = build_entries(runs, sessions, b.policy, options.now, out.left_out);
  if (b.entries.empty()) {
    throw InputError("no benchmark was measured cleanly in " + std::to_string(b.policy.min_runs) +
                     " runs; nothing to baseline");
  }
  set_family_size(b.policy, b.entries.size());
  return out;
}

}  // namespace fabricgate::baseline
