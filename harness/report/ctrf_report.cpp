// The Common Test Report Format (https://ctrf.io, specVersion 1.0.0): one test per key, the same
// mapping as JUnit (junit_report.cpp) so both CI views count alike: a failing verdict "failed"; a
// key that was not gated, or a load-made failure of a busy runner, "skipped"; what makes exit 3
// (a degraded runner, a run under its roofline, a key lost to an incomplete run) "other"; the rest
// "passed". rawStatus keeps the gate's own verdict. A failing cluster finding is a failed test of
// its own, its message with the node's severity (node_actions.hpp). Validated against the published
// schema in tests (tests/data/schemas/ctrf.schema.json).
#include <chrono>
#include <ctime>

#include <nlohmann/json.hpp>

#include "harness/cluster/node_actions.hpp"
#include "harness/report/render.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::report {

namespace {

using nlohmann::json;

// Milliseconds since the epoch of an ISO 8601 UTC time ("2026-12-01T09:18:26Z"); 0 when unreadable.
long long epoch_ms(const std::string& iso) {
  std::tm tm{};
  if (iso.size() < 19 || ::strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%S", &tm) == nullptr) return 0;
  return static_cast<long long>(::timegm(&tm)) * 1000;
}

const char* ctrf_status(const verdict::Comparison& c, const verdict::KeyComparison& k) {
  if (k.missing_because_incomplete) return "other";
  if (c.runner_busy && verdict::verdict_load_can_cause(k.verdict)) return "skipped";
  if (c.runner_degraded && verdict::verdict_fails_gate(k.verdict)) return "other";
  if (!c.below_roofline_unjudged.empty() && k.roofline &&
      k.roofline->status == roofline::Status::below_floor)
    return "other";
  if (verdict::verdict_fails_gate(k.verdict)) return "failed";
  if (!verdict::facts_of(k.verdict).gated) return "skipped";
  return "passed";
}

}  // namespace

std::string render_ctrf(const verdict::Comparison& c) {
  const long long start = epoch_ms(c.run_started_at);
  json tests = json::array();
  json counts = {{"passed", 0}, {"failed", 0}, {"skipped", 0}, {"pending", 0}, {"other", 0}};
  for (const verdict::KeyComparison& k : c.keys) {
    const std::string status = ctrf_status(c, k);
    counts[status] = counts[status].get<int>() + 1;
    json t = {{"name", k.key},
              {"status", status},
              {"duration", 0},
              {"rawStatus", verdict::verdict_name(k.verdict)},
              {"suite", json::array({c.platform, k.family + "/" + k.backend + "/" + k.op})},
              {"type", "performance"}};
    if (!k.reason.empty()) t["message"] = k.reason;
    tests.push_back(std::move(t));
  }
  for (const verdict::ClusterFinding& f : c.cluster_findings) {
    if (!f.fails_gate) continue;
    counts["failed"] = counts["failed"].get<int>() + 1;
    std::string message = f.text;
    if (!f.node.empty())
      message += std::string(" (severity ") +
                 cluster::severity_name(cluster::finding_severity(f).severity) + ")";
    tests.push_back({{"name", "cluster/" + f.id + (f.node.empty() ? "" : "/" + f.node)},
                     {"status", "failed"},
                     {"duration", 0},
                     {"rawStatus", f.id},
                     {"suite", json::array({c.platform, "cluster"})},
                     {"type", "cluster"},
                     {"message", message}});
  }
  json summary = {{"tests", tests.size()}, {"start", start}, {"stop", start}};
  for (const auto& [status, n] : counts.items()) summary[status] = n;
  json doc = {{"reportFormat", "CTRF"},
              {"specVersion", "1.0.0"},
              {"generatedBy", "fabricgate"},
              {"results",
               {{"tool", {{"name", "fabricgate"}}},
                {"summary", summary},
                {"tests", tests},
                {"extra",
                 {{"run_id", c.run_id},
                  {"platform", c.platform},
                  {"headline", c.headline()},
                  {"exit_code", static_cast<int>(c.exit_code)}}}}}};
  return doc.dump(2) + "\n";
}

}  // namespace fabricgate::report
