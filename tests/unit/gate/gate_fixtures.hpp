#pragma once
// Synthetic runs and baselines for the gate/report tests, built as JSON so that every test also
// goes through the real loader (parse_run) rather than hand-filled structs.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/model/run_record.hpp"

namespace fabricgate::testing {

using nlohmann::json;

struct ResultSpec {
  std::string op = "all_reduce";
  std::string backend = "mpi";
  std::string family = "coll";
  std::uint64_t bytes = 1 << 20;
  int nranks = 2;
  int gpus_per_process = 1;
  std::vector<double> time_us;  // one per repetition
  double busbw_factor = 1.0;    // 0: non-collective (no busbw)
  std::string status = "ok";
  std::string message;  // the bench's message (skip reason, error)
  json choice;          // null or {"algo": {...}, "proto": {...}, "channels": {...}}
  json params = json::object();
  json notes = json::array();
};

// Key like the bench writes it: <family>/<backend>/<op>/float32/sum/bytes:<n>/ranks:<n>/oop.
std::string key_for(const ResultSpec& spec);
json make_result(const ResultSpec& spec);

struct RunSpec {
  std::string run_id = "run-a";
  std::string platform = "cpu-test-2c";
  bool complete = true;
  int nranks = 2;
  int gpus_per_process = 1;
  json identity = {{"gpu_model", ""},
                   {"gpu_count", 0},
                   {"gpu_topology", ""},
                   {"cpu_model", "Test CPU 2c"},
                   {"rdma_devices", 0}};
  json versions = {{"driver", ""}, {"nccl", "2.28.3"}, {"mpi", "Open MPI 4.1.6"}};
  json capture = {{"path", "none"},  {"nccl_version", ""},
                  {"network", ""},   {"transports", json::array()},
                  {"gdrdma", false}, {"env_overrides", json::object()}};
  std::string git_commit = "abc123";
  // Empty: each run made in this process starts an hour after the previous one, so runs made
  // one after another are sittings of their own (launches less than 30 minutes apart are one
  // sitting, harness/baseline/baseline_sessions.hpp) and a baseline of them has measured
  // between-sitting noise. Tests of one sitting set it.
  std::string started_at;
};

json make_run(const RunSpec& spec, const std::vector<json>& results);
RunRecord to_run(const json& doc);  // parse_run(doc, "<test run>")

// Deterministic noisy samples: value * (1 + shift) * (1 + noise_i), noise_i ~ N(0, rel_noise),
// occasional outliers (+3 x rel_noise) like a shared CPU produces.
std::vector<double> noisy(double value, double rel_noise, int n, unsigned seed, double shift = 0);

// Writes run.json into dir/<platform>/<run_id>/ and returns that directory.
std::filesystem::path write_run_dir(const std::filesystem::path& root, const json& run);

// A fresh empty directory under the system temp dir, removed when the test process ends.
std::filesystem::path fresh_temp_dir(const std::string& name);

}  // namespace fabricgate::testing
