#include "harness/baseline/baseline_sessions.hpp"

#include <algorithm>
#include <ctime>
#include <map>
#include <numeric>

#include <fmt/format.h>

namespace fabricgate::baseline {

long long seconds_of_iso8601(const std::string& text) {
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6 ||
      static_cast<std::size_t>(consumed) != text.size()) {
    return -1;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<long long>(timegm(&tm));
}

namespace {

std::string compact(const std::string& iso) {
  std::string out;
  for (const char c : iso) {
    if (c != '-' && c != ':') out += c;
  }
  return out.empty() ? "unknown" : out;
}

}  // namespace

std::vector<RunSession> sessions_of_runs(const std::vector<RunRecord>& runs, int gap_minutes) {
  std::vector<RunSession> out(runs.size());
  std::map<std::string, std::vector<std::size_t>> by_host;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    out[i].host = runs[i].host_id;
    by_host[runs[i].host_id].push_back(i);
  }
  const long long gap = static_cast<long long>(gap_minutes) * 60;
  for (auto& [host, indices] : by_host) {
    std::stable_sort(indices.begin(), indices.end(), [&](std::size_t a, std::size_t b) {
      return runs[a].started_at < runs[b].started_at;  // ISO 8601 UTC sorts as text
    });
    std::string id;
    std::string first;
    long long previous = -1;
    for (const std::size_t i : indices) {
      const RunRecord& r = runs[i];
      const long long t = seconds_of_iso8601(r.started_at);
      if (id.empty() || t < 0 || previous < 0 || t - previous > gap) {
        // A new sitting: named after its first run's session, as `run` named it.
        first = r.session_id.empty() || r.session_started_at.empty() ? r.started_at
                                                                     : r.session_started_at;
        id = !r.session_id.empty()
                 ? r.session_id
                 : fmt::format("legacy-{}-{}", host.empty() ? "unknown" : host, compact(first));
      }
      previous = t;
      out[i].id = id;
      out[i].started_at = first;
    }
  }
  return out;
}

std::string describe_sessions(const Baseline& b) {
  const std::size_t hosts = hosts_of(b.sessions).size();
  std::string out = fmt::format("sessions: {} on {} host(s)", b.sessions.size(), hosts);
  for (const BaselineSession& s : b.sessions)
    out += fmt::format("\n  {} host {} started {} launches {}", s.id,
                       s.host.empty() ? "unknown" : s.host,
                       s.started_at.empty() ? "unknown" : s.started_at, s.launches);
  out += "\n";
  if (b.sessions.size() < static_cast<std::size_t>(b.policy.min_sessions)) {
    out += b.policy.session_allowance > 0
               ? fmt::format(
                     "between-session term NOT estimated: {} session(s) (sittings: launches of a "
                     "host less than {} minutes apart) < min_sessions {}: keys without a "
                     "calibrated band are UNMEASURED, not gated, until launches of other sittings "
                     "join (baseline grow / update)\n",
                     b.sessions.size(), kSittingGapMinutes, b.policy.min_sessions)
               : fmt::format(
                     "between-session term NOT estimated: {} session(s) < min_sessions {}; the "
                     "policy's session_allowance 0 declares it nil\n",
                     b.sessions.size(), b.policy.min_sessions);
  }
  return out;
}

std::vector<BaselineSession> session_list(const std::vector<RunSession>& per_run) {
  std::map<std::string, BaselineSession> by_id;
  for (const RunSession& s : per_run) {
    BaselineSession& b = by_id[s.id];
    if (b.id.empty()) b = BaselineSession{s.id, s.host, s.started_at, 0};
    if (!s.started_at.empty() && (b.started_at.empty() || s.started_at < b.started_at))
      b.started_at = s.started_at;
    ++b.launches;
  }
  std::vector<BaselineSession> out;
  for (auto& [id, s] : by_id) out.push_back(std::move(s));
  std::stable_sort(out.begin(), out.end(), [](const BaselineSession& a, const BaselineSession& b) {
    return a.started_at != b.started_at ? a.started_at < b.started_at : a.id < b.id;
  });
  return out;
}

}  // namespace fabricgate::baseline
