#include "harness/launch/run_assembly.hpp"

#include <chrono>
#include <cstdlib>
#include <ctime>

#include <unistd.h>

#include "core/records_header.hpp"
#include "harness/model/host_identity.hpp"
#include "harness/model/secret_redaction.hpp"

namespace fabricgate::launch {

json assemble_run(const RunFacts& f, const RecordsFile& records, const json& fingerprint,
                  const json& capture) {
  // No header: the bench never got that far; the defaults say so (0 ranks, no nodes).
  const RecordsHeader h =
      records.header.is_object() ? read_records_header(records.header) : RecordsHeader{};
  std::string reason = f.incomplete_reason;
  if (reason.empty() && !records.complete)
    reason = "the bench ended without writing its final record";
  if (!reason.empty() && !records.in_progress.empty())
    reason += "; benchmark in progress: " + records.in_progress;
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
      {"host_id", f.host_id},
      {"session_id", f.session_id},
      {"session_started_at", f.session_started_at},
      {"metadata", f.metadata},
      {"launch",
       {{"launcher", f.launcher},
        {"nranks", h.nranks},
        {"nodes", h.nodes},
        {"gpus_per_process", h.gpus_per_process},
        {"ranks_per_node", h.ranks_per_node},
        {"gpus_per_node", h.gpus_per_node},
        {"nodes_emulated", h.nodes_emulated},
        {"mpi_version", h.mpi_version},
        // What the bench really loaded (fabricgate ab verifies it against the side's spec).
        {"nccl_version", h.nccl_version},
        {"nccl_library", h.nccl_library},
        {"extra_env", recordable_environment(f.extra_env)},
        {"extra_env_unset", f.extra_env_unset}}},
      {"ranks", h.ranks},
      // One compact fingerprint per node, gathered by the bench (docs/MULTINODE.md).
      {"nodes", h.node_facts},
      {"fingerprint", fingerprint},
      {"capture", capture},
      {"benchmarks", records.benchmarks},
  };
  if (f.host_cpu_pressure) {
    run["host_cpu_pressure"] = {{"some_share", *f.host_cpu_pressure},
                                {"source", "/proc/pressure/cpu"}};
  }
  if (!f.runner_counters.is_null()) run["runner_counters"] = f.runner_counters;
  return run;
}

const InvocationSession& invocation_session(const json& fingerprint) {
  // A function-local static: the first launch of the process fixes the session, later ones
  // (another scenario, a confirmation launch) reuse it.
  static const InvocationSession session = [&] {
    InvocationSession s;
    s.host_id = host_id_of(fingerprint);
    s.started_at = utc_now_iso8601();
    // A CI job (or a script) that calls `fabricgate run` once per launch is still one sitting:
    // FABRICGATE_SESSION names its session for all of them.
    const char* given = std::getenv("FABRICGATE_SESSION");
    s.id = given != nullptr && *given != '\0'
               ? std::string(given)
               : session_id_of(utc_now_compact(), s.host_id, static_cast<long>(getpid()));
    return s;
  }();
  return session;
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
  if (!env("GITHUB_SERVER_URL").empty() && !env("GITHUB_REPOSITORY").empty() &&
      !env("GITHUB_RUN_ID").empty()) {
    m["ci_run_url"] =
        redact_url_credentials(env("GITHUB_SERVER_URL") + "/" + env("GITHUB_REPOSITORY") +
                               "/actions/runs/" + env("GITHUB_RUN_ID"));
  }
  return m;
}

}  // namespace fabricgate::launch
