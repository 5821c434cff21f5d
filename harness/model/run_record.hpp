#pragma once
// The run record (docs/DESIGN.md, schema fabricgate.run/1) as plain data, and its strict loader.
// Everything downstream (gate, reports, baselines) reads these structs, never raw JSON, so the
// validation below is the one place that decides what a believable measurement looks like.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/benchmark_result.hpp"  // BenchmarkResult, parse_benchmark_result
#include "core/plausibility_limits.hpp"
#include "harness/model/counters/counter_record.hpp"
#include "harness/model/fingerprint_detail.hpp"

namespace fabricgate {

inline constexpr const char* kRunSchema = "fabricgate.run/1";

struct Launch {
  std::string launcher;
  int nranks = 0;
  int nodes = 0;
  int gpus_per_process = 1;
  int ranks_per_node = 0;  // g (the smallest node's count when nodes differ); 0 when not recorded
  int gpus_per_node = 0;   // GPUs driven per node; 0 on host-only runs or when not recorded
  bool nodes_emulated = false;  // several "nodes" on one host (NCCL_HOSTID), docs/MULTINODE.md
};

// One node's compact fingerprint (run.json "nodes", gathered by the bench on rank 0).
struct NodeRecord {
  std::string name;  // node name: the host name, or <host>-node<j> when emulated
  std::string hostname;
  bool emulated = false;
  std::size_t rank_count = 0;
  std::map<std::string, std::string> facts;  // driver, nccl, cuda_driver, gpu_count, nics, ...
  std::string test_override;  // facts a test replaced (FABRICGATE_TEST_NODE_FACT_OVERRIDE)
};

struct RankInfo {
  int rank = 0;
  std::string host;
  int local_rank = 0;
  std::string gpu_uuid;
  std::string pci_bus_id;
};

struct Capture {
  std::string path = "none";  // profiler | log | none
  std::string nccl_version;
  std::string network;
  std::vector<std::string> transports;
  bool gdrdma = false;
  std::map<std::string, std::string> env_overrides;
};

// The parts of the fingerprint the gate needs. `identity` stays JSON so that fields added by the
// fingerprint library later are compared without a change here.
struct FingerprintSummary {
  bool present = false;
  std::string platform_key;
  nlohmann::json identity = nlohmann::json::object();
  std::map<std::string, std::string> versions;
  // Smallest per-direction NVLink aggregate over the GPUs (GB/s, the published figure, P17);
  // 0 when there is no NVLink or no GPU section.
  double nvlink_GBps_per_direction = 0;
  FingerprintDetail detail;  // what a "what changed" report compares (fingerprint_detail.hpp)
  // The fingerprint as recorded: the roofline reads its hardware facts (harness/roofline).
  nlohmann::json document = nlohmann::json::object();
};

struct RunRecord {
  std::string source;     // file it was read from (run.json or records.jsonl)
  std::string directory;  // run directory ("" when a run.json file was given directly)
  std::string run_id;
  std::string suite;
  std::string scenario;
  std::map<std::string, std::string> scenario_env;
  std::string platform;
  bool complete = true;
  std::string incomplete_reason;
  std::string started_at;
  std::string finished_at;
  // Which machine and which `fabricgate run` invocation (host_identity.hpp). Runs written before
  // they were recorded: host_id derived from the fingerprint, session empty (baseline create
  // groups such runs into sessions by time, baseline_sessions.hpp).
  std::string host_id;
  std::string session_id;
  std::string session_started_at;
  // Share of the launch during which the launching host had a task waiting for a CPU
  // (/proc/pressure/cpu "some"); absent in runs written before it was recorded or without PSI.
  std::optional<double> host_cpu_pressure;
  // What the runner was doing during the launch (run.json "runner_counters", docs/COUNTERS.md):
  // counter deltas per GPU, RDMA port and host, and foreign GPU processes; `present` false in
  // runs written before it was recorded.
  counters::RunnerCounters runner_counters;
  std::map<std::string, std::string> metadata;
  Launch launch;
  std::vector<RankInfo> ranks;
  std::vector<NodeRecord> nodes;  // empty when the bench did not gather node facts
  FingerprintSummary fingerprint;
  Capture capture;
  std::vector<BenchmarkResult> benchmarks;
};

// Loads a run directory (run.json, or records.jsonl of a crashed run, marked incomplete) or a
// run.json file. Throws InputError naming the file, the JSON pointer and the expectation.
RunRecord load_run(const std::filesystem::path& path, const PlausibilityLimits& limits = {});

// Validates an already-parsed run document; `origin` names it in errors.
RunRecord parse_run(const nlohmann::json& doc, const std::string& origin,
                    const PlausibilityLimits& limits = {});

}  // namespace fabricgate
