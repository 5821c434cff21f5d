#include "harness/launch/run_assembly.hpp"

#include <chrono>
#include <cstdlib>
#include <ctime>

#include "harness/model/secret_redaction.hpp"

namespace fabricgate::launch {

json assemble_run(const RunFacts& f, const RecordsFile& records, const json& fingerprint, const json& capture) {
  const json& h = records.header;
  const bool have_header = h.is_object();
  std::string reason = f.incomplete_reason;
  if (reason.empty() && !records.complete) reason = "the bench ended without writing its final record";
  if (!reason.empty() && !records.in_progress.empty()) reason += "; benchmark in progress: " + records.in_progress;
  json run = {
      {"schema", "fabricgate.run/1"},
      {"run_id", f.run_id},
      {"suite", f.suite},
      {"scenario", {{"name", f.scenario}, {"env", recordable_environment(f.scenario_env)}}},
      {"platform", f.platform},
      {"complete", reason.empty()},
      {"incomplete_reason", reason},
      {"started_at", f.started_at},
      {"finished_at", f.finished_at},
      {"metadata", f.metadata},
      {"launch",
       {{"launcher", f.launcher},
        {"nranks", have_header ? h.value("nranks", 0) : 0},
        {"nodes", have_header ? h.value("nodes", 0) : 0},
        {"gpus_per_process", have_header ? h.value("gpus_per_process", 1) : 1},
        {"ranks_per_node", have_header ? h.value("ranks_per_node", 0) : 0},
        {"gpus_per_node", have_header ? h.value("gpus_per_node", 0) : 0},
        {"nodes_emulated", have_header ? h.value("nodes_emulated", false) : false},
        {"mpi_version", have_header ? h.value("mpi_version", "") : ""},
        // What the bench really loaded (fabricgate ab verifies it against the side's spec).
        {"nccl_version", have_header ? h.value("nccl_version", "") : ""},
        {"nccl_library", have_header ? h.value("nccl_library", "") : ""},
        {"extra_env", recordable_environment(f.extra_env)}}},
      {"ranks", have_header && h.contains("ranks") ? h["ranks"] : json::array()},
      // One compact fingerprint per node, gathered by the bench (docs/MULTINODE.md).
      {"nodes", have_header && h.contains("node_facts") && h["node_facts"].is_array() ? h["node_facts"] : json::array()},
      {"fingerprint", fingerprint},
      {"capture", capture},
      {"benchmarks", records.benchmarks},
  };
  return run;
}

std::string utc_now_iso8601() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string utc_now_compact() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

json ci_metadata() {
  const auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v ? v : "";
  };
  json m = json::object();
  for (const char* name : {"GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT"}) {
    if (!env(name).empty()) {
      m["git_commit"] = env(name);
      break;
    }
  }
  for (const char* name : {"GITHUB_RUN_ID", "CI_JOB_ID", "BUILD_ID", "SLURM_JOB_ID"}) {
    if (!env(name).empty()) {
      m["ci_run_id"] = env(name);
      break;
    }
  }
  if (!env("GITHUB_SERVER_URL").empty() && !env("GITHUB_REPOSITORY").empty() && !env("GITHUB_RUN_ID").empty()) {
    m["ci_run_url"] = redact_url_credentials(env("GITHUB_SERVER_URL") + "/" + env("GITHUB_REPOSITORY") + "/actions/runs/" +
                                             env("GITHUB_RUN_ID"));
  }
  return m;
}

}  // namespace fabricgate::launch
