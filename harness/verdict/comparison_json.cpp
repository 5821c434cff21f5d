#include "harness/verdict/comparison_json.hpp"
#include "harness/roofline/finding_json.hpp"
#include "harness/verdict/fingerprint_changes.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::verdict {

namespace {

nlohmann::json changes_to_json(const std::vector<Change>& changes) {
  nlohmann::json out = nlohmann::json::array();
  for (const Change& c : changes)
    out.push_back({{"what", c.what}, {"before", c.before}, {"after", c.after}});
  return out;
}

nlohmann::json judgement_to_json(const MetricJudgement& m) {
  return {{"metric", metric_name(m.metric)},
          {"why_metric", m.why_metric},
          {"size_class", m.size_class},
          {"baseline_median", m.baseline_median},
          {"current_median", m.current_median},
          {"performance_ratio", m.performance_ratio},
          {"tolerance", m.tolerance},
          {"static_tolerance", m.static_tolerance},
          {"baseline_log_sd", m.baseline_spread},
          {"band", m.band},
          {"baseline_launches", m.launches},
          {"band_calibrated", m.band_calibrated},
          {"noisy", m.noisy},
          {"between_unmeasured", m.between_unmeasured},
          {"launch_cv", m.launch_cv},
          {"repetitions", m.repetitions},
          {"lower_limit", m.lower_limit},
          {"upper_limit", m.upper_limit},
          {"band_scope", m.band_scope},
          {"reference", m.reference},
          {"stored_level_set_aside", m.stored_level_set_aside},
          {"between_sd", m.between_sd}};
}

nlohmann::json key_to_json(const KeyComparison& k) {
  nlohmann::json j{{"key", k.key},
                   {"family", k.family},
                   {"backend", k.backend},
                   {"op", k.op},
                   {"bytes", k.bytes},
                   {"nranks", k.nranks},
                   {"verdict", verdict_name(k.verdict)},
                   {"style", style_name(facts_of(k.verdict).style)},
                   {"gated", facts_of(k.verdict).gated},
                   {"fails_gate", verdict_fails_gate(k.verdict) && !k.missing_because_incomplete},
                   {"reason", k.reason},
                   {"changes", changes_to_json(k.changes)}};
  nlohmann::json notes = nlohmann::json::array();
  for (const Note& n : k.notes)
    notes.push_back({{"id", n.id}, {"level", n.level}, {"text", n.text}});
  j["notes"] = std::move(notes);
  if (k.judgement) {
    const MetricJudgement& m = *k.judgement;
    j["judgement"] = judgement_to_json(m);
  }
  if (k.fleet) j["fleet_judgement"] = judgement_to_json(*k.fleet);
  if (k.judgement) {
    j["outside_fleet"] = k.outside_fleet;
    j["fleet_offset_sd"] = k.fleet_offset_sd;
  }
  if (k.jitter) {
    const JitterJudgement& t = *k.jitter;
    j["jitter"] = {{"ratio", t.ratio}, {"centre", t.centre},     {"tolerance", t.tolerance},
                   {"limit", t.limit}, {"launches", t.launches}, {"noisy", t.noisy},
                   {"over", t.over}};
  }
  if (k.roofline) j["roofline"] = roofline::to_json(*k.roofline);
  if (k.confirmation) {
    const Confirmation& f = *k.confirmation;
    nlohmann::json later = nlohmann::json::array();
    for (const ConfirmationResult& r : f.later) {
      later.push_back({{"verdict", verdict_name(r.verdict)},
                       {"reason", r.reason},
                       {"source", r.source},
                       {"value", r.value ? nlohmann::json(*r.value) : nlohmann::json(nullptr)}});
    }
    j["confirmation"] = {{"first", verdict_name(f.first)},
                         {"first_reason", f.first_reason},
                         {"later", std::move(later)},
                         {"rule", f.rule},
                         {"decision", f.decision}};
  }
  return j;
}

nlohmann::json runner_evidence_to_json(const RunnerEvidence& e) {
  nlohmann::json foreign = nlohmann::json::array();
  for (const ForeignGpuProcess& f : e.foreign_processes) {
    foreign.push_back(
        {{"pid", f.pid},
         {"name", f.name},
         {"gpu_index", f.gpu_index},
         {"gpu_uuid", f.gpu_uuid},
         {"used_memory_bytes", f.used_memory_bytes},
         {"sm_percent", f.sm_percent ? nlohmann::json(*f.sm_percent) : nlohmann::json()},
         {"launch", f.launch},
         {"seen", f.seen}});
  }
  return {{"recorded", e.recorded},
          {"foreign_processes", std::move(foreign)},
          {"foreign_load", e.foreign_load},
          {"busy_gpu", e.busy_gpu},
          {"throttling", e.throttling},
          {"unread", e.unread},
          {"snapshot_ms_max", e.snapshot_ms_max}};
}

}  // namespace

nlohmann::json comparison_to_json(const Comparison& c) {
  nlohmann::json versions = nlohmann::json::array();
  for (const VersionChange& v : c.version_changes) {
    versions.push_back({{"component", v.component}, {"before", v.before}, {"after", v.after}});
  }
  nlohmann::json counts = nlohmann::json::object();
  for (const VerdictCount& n : c.counts()) counts[verdict_name(n.verdict)] = n.count;
  nlohmann::json keys = nlohmann::json::array();
  for (const KeyComparison& k : c.keys) keys.push_back(key_to_json(k));
  nlohmann::json findings = nlohmann::json::array();
  for (const ClusterFinding& f : c.cluster_findings) {
    findings.push_back({{"id", f.id},
                        {"fails_gate", f.fails_gate},
                        {"acked", f.acked},
                        {"node", f.node},
                        {"field", f.field},
                        {"text", f.text},
                        {"key", f.key}});
  }
  nlohmann::json rank_tables = nlohmann::json::array();
  for (const RankTable& t : c.rank_tables)
    rank_tables.push_back({{"key", t.key}, {"why", t.why}, {"ranks", to_json(t.ranks)}});
  return {{"schema", kComparisonSchema},
          {"run_id", c.run_id},
          {"platform", c.platform},
          {"run_source", c.run_source},
          {"baseline_source", c.baseline_source},
          {"has_baseline", c.has_baseline},
          {"create_baseline_command", c.create_baseline_command},
          {"roofline_policy", c.roofline_policy},
          {"run_complete", c.run_complete},
          {"incomplete_reason", c.incomplete_reason},
          {"identity_forced", c.identity_forced},
          {"identity_changes", changes_to_json(c.identity_changes)},
          {"version_changes", std::move(versions)},
          {"fingerprint_diff", fingerprint_diff_to_json(c.fingerprint_changes)},
          {"fingerprint_note", c.fingerprint_note},
          {"capture",
           {{"path", c.capture.path},
            {"network", c.capture.network},
            {"transports", c.capture.transports},
            {"gdrdma", c.capture.gdrdma},
            {"nccl_version", c.capture.nccl_version}}},
          {"warnings", c.warnings},
          {"multiple_comparison", c.multiple_comparison},
          {"alpha", c.alpha},
          {"exit_code", static_cast<int>(c.exit_code)},
          {"headline", c.headline()},
          {"gate", gate_mode_name(c.gate)},
          {"change",
           {{"verdict", change_answer_word(c.settled.change)},
            {"line", c.change_line()},
            {"software_changes", c.software_changes},
            {"host_history_runs", c.host_history_launches},
            {"gross_change_keys", c.gross_change_keys},
            {"gross_change_limits", c.gross_change_source},
            {"paired_check",
             {{"directory", c.paired_check_dir},
              {"pairs", c.paired_check_pairs},
              {"worse", c.paired_check_worse},
              {"within", c.paired_check_within},
              {"not_decided", c.paired_check_open},
              {"skipped", c.paired_check_skipped}}}}},
          {"runner",
           {{"verdict", c.settled.runner},
            {"line", c.runner_line()},
            {"host_id", c.host_id},
            {"host_name", c.host_name},
            {"keys_outside_fleet", c.outside_fleet_count()}}},
          {"counts", std::move(counts)},
          {"cluster_findings", std::move(findings)},
          {"rank_tables", std::move(rank_tables)},
          {"node_actions", c.node_actions},
          {"confirmation_run", c.confirmation_run},
          {"confirmation_note", c.confirmation_note},
          {"node_layout", c.node_layout},
          // null where the kernel has no PSI or the run predates it
          {"host_cpu_pressure",
           c.host_cpu_pressure ? nlohmann::json(*c.host_cpu_pressure) : nlohmann::json(nullptr)},
          {"runner_busy", c.runner_busy},
          {"runner_degraded", c.runner_degraded},
          {"below_roofline_unjudged", c.below_roofline_unjudged},
          {"runner_evidence", runner_evidence_to_json(c.runner_evidence)},
          {"keys", std::move(keys)}};
}

}  // namespace fabricgate::verdict
