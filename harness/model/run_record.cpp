#include "harness/model/run_record.hpp"

#include <fstream>
#include <set>
#include <string_view>
#include <unordered_map>

#include "core/benchmark_key.hpp"
#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/record_fields.hpp"
#include "core/records_file.hpp"
#include "harness/model/counters/counters_json.hpp"
#include "harness/model/host_identity.hpp"
#include "harness/model/secret_redaction.hpp"

namespace fabricgate {

namespace fs = std::filesystem;

namespace {

// The longest host or session id a run file may carry (ids fabricgate writes are 12 to ~40 bytes).
constexpr std::size_t kMaxRunIdBytes = 128;

// `positions[i]` names where benchmarks[i] was read: its array index in run.json, its line number
// in records.jsonl, so that a duplicate is reported where the reader will look for it.
void check_unique_keys(const std::vector<BenchmarkResult>& benchmarks, const std::string& origin,
                       const std::string& list_pointer, const std::vector<std::size_t>& positions) {
  std::unordered_map<std::string_view, std::size_t> seen;
  seen.reserve(benchmarks.size());
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    auto [it, fresh] = seen.emplace(benchmarks[i].key, i);
    if (!fresh) {
      throw InputError(origin, list_pointer + std::to_string(positions[i]) + "/key",
                       "a key that appears once, \"" + benchmarks[i].key + "\" is also at " +
                           list_pointer + std::to_string(positions[it->second]));
    }
  }
}

std::vector<std::size_t> array_indices(std::size_t n) {
  std::vector<std::size_t> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = i;
  return out;
}

FingerprintSummary parse_fingerprint(const RecordFields& f, const std::string& p) {
  const JsonReader& r = f.reader();
  FingerprintSummary fp;
  if (!r.find(p)) return fp;
  r.object_at(p);
  fp.present = true;
  fp.platform_key = f.optional_string(p + "/platform_key");
  fp.identity = r.object_at(p + "/identity");
  fp.detail = fingerprint_detail(r.at(p));
  fp.document = r.at(p);
  if (r.find(p + "/versions")) {
    for (const auto& [k, v] : r.object_at(p + "/versions").items()) {
      // Versions are strings; tolerate null for "not installed" rather than failing the run.
      if (v.is_null()) continue;
      if (!v.is_string()) r.fail(p + "/versions/" + json_pointer_escape(k), "a string or null");
      fp.versions[k] = v.get<std::string>();
    }
  }
  if (const json* devices = r.find(p + "/gpus/devices"); devices && devices->is_array()) {
    for (std::size_t i = 0; i < devices->size(); ++i) {
      const std::string q =
          p + "/gpus/devices/" + std::to_string(i) + "/nvlink/aggregate_GBps_per_direction";
      if (!r.find(q) || r.at(q).is_null()) continue;
      const double v = r.non_negative_at(q);
      if (v > 0 && (fp.nvlink_GBps_per_direction == 0 || v < fp.nvlink_GBps_per_direction))
        fp.nvlink_GBps_per_direction = v;
    }
  }
  return fp;
}

}  // namespace

RunRecord parse_run(const json& doc, const std::string& origin, const PlausibilityLimits& limits) {
  const RecordFields f(doc, origin, limits);
  const JsonReader& r = f.reader();
  RunRecord run;
  run.source = origin;
  run.run_id = r.string_at("/run_id");
  require_safe_name(run.run_id, origin, "/run_id");
  run.platform = r.string_at("/platform");
  require_safe_name(run.platform, origin, "/platform");
  run.suite = f.optional_string("/suite");
  if (r.find("/scenario")) {
    run.scenario = f.optional_string("/scenario/name");
    // A run file may come from anyone: secrets in it are dropped as it is read, so that no
    // report, store row or publish payload made from it carries them (secret_redaction.hpp).
    run.scenario_env = recordable_environment(f.string_map("/scenario/env"));
  }
  run.complete = r.bool_at("/complete");
  run.incomplete_reason = f.optional_string("/incomplete_reason");
  run.started_at = f.optional_string("/started_at");
  run.finished_at = f.optional_string("/finished_at");
  run.metadata = recordable_environment(f.string_map("/metadata"));
  r.object_at("/launch");
  run.launch.launcher = f.optional_string("/launch/launcher");
  run.launch.nranks = f.int_in("/launch/nranks", 1, limits.max_ranks);
  run.launch.nodes = r.find("/launch/nodes") ? f.int_in("/launch/nodes", 1, limits.max_ranks) : 1;
  run.launch.gpus_per_process =
      r.find("/launch/gpus_per_process") ? f.int_in("/launch/gpus_per_process", 0, 64) : 1;
  if (r.find("/launch/ranks_per_node"))
    run.launch.ranks_per_node = f.int_in("/launch/ranks_per_node", 0, limits.max_ranks);
  if (r.find("/launch/gpus_per_node"))
    run.launch.gpus_per_node = f.int_in("/launch/gpus_per_node", 0, limits.max_ranks);
  if (r.find("/launch/nodes_emulated"))
    run.launch.nodes_emulated = r.bool_at("/launch/nodes_emulated");
  if (r.find("/nodes")) {
    const json& nodes = r.array_at("/nodes");
    run.nodes.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::string p = "/nodes/" + std::to_string(i);
      NodeRecord n;
      n.name = r.string_at(p + "/name");
      n.hostname = f.optional_string(p + "/hostname");
      n.emulated = r.find(p + "/emulated") ? r.bool_at(p + "/emulated") : false;
      n.rank_count = r.find(p + "/ranks") ? r.array_at(p + "/ranks").size() : 0;
      n.facts = recordable_environment(f.string_map(p + "/facts"));
      n.test_override = f.optional_string(p + "/test_override");
      run.nodes.push_back(std::move(n));
    }
  }
  if (r.find("/ranks")) {
    const json& ranks = r.array_at("/ranks");
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const std::string p = "/ranks/" + std::to_string(i);
      run.ranks.push_back(
          RankInfo{f.int_in(p + "/rank", 0, limits.max_ranks), f.optional_string(p + "/host"),
                   r.find(p + "/local_rank") ? f.int_in(p + "/local_rank", 0, limits.max_ranks) : 0,
                   f.optional_string(p + "/gpu_uuid"), f.optional_string(p + "/pci_bus_id")});
    }
  }
  run.fingerprint = parse_fingerprint(f, "/fingerprint");
  run.session_id = f.optional_string("/session_id");
  run.session_started_at = f.optional_string("/session_started_at");
  if (r.find("/host_cpu_pressure/some_share")) {
    const double share = r.non_negative_at("/host_cpu_pressure/some_share");
    if (share > 1) throw InputError(origin, "/host_cpu_pressure/some_share", "a share in [0, 1]");
    run.host_cpu_pressure = share;
  }
  if (const json* counters = r.find("/runner_counters"); counters && !counters->is_null())
    run.runner_counters =
        counters::runner_counters_from_json(*counters, origin, "/runner_counters");
  run.host_id = f.optional_string("/host_id");
  if (run.host_id.empty() && r.find("/fingerprint")) run.host_id = host_id_of(r.at("/fingerprint"));
  // Ids name a runner and a sitting in every record, line and report: a few dozen characters
  // (issue 58: 100,000 letters were accepted and printed three times).
  for (const auto& [field, id] :
       {std::pair<const char*, const std::string*>{"/host_id", &run.host_id},
        {"/session_id", &run.session_id}}) {
    if (id->size() > kMaxRunIdBytes)
      throw InputError(origin, field,
                       "an id of at most " + std::to_string(kMaxRunIdBytes) + " bytes (it is " +
                           std::to_string(id->size()) + ")");
  }
  if (r.find("/capture")) {
    r.object_at("/capture");
    run.capture.path = r.find("/capture/path") ? r.string_at("/capture/path") : "none";
    run.capture.nccl_version = f.optional_string("/capture/nccl_version");
    run.capture.network = f.optional_string("/capture/network");
    run.capture.transports = f.string_list("/capture/transports");
    run.capture.gdrdma = r.find("/capture/gdrdma") ? r.bool_at("/capture/gdrdma") : false;
    run.capture.env_overrides = recordable_environment(f.string_map("/capture/env_overrides"));
  }
  const json& list = r.array_at("/benchmarks");
  run.benchmarks.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    run.benchmarks.push_back(
        parse_benchmark_result(doc, origin, "/benchmarks/" + std::to_string(i), limits));
  }
  check_unique_keys(run.benchmarks, origin, "/benchmarks/", array_indices(run.benchmarks.size()));
  return run;
}

namespace {

// A crashed run left only records.jsonl (one BenchmarkResult per line). The run directory is
// results/<platform>/<run_id>/, so the names come from the path; nothing else is known.
RunRecord load_records_jsonl(const fs::path& dir, const fs::path& jsonl,
                             const PlausibilityLimits& limits) {
  if (!std::ifstream(jsonl, std::ios::binary))
    throw InputError(jsonl.string(), "", "cannot open file");
  RunRecord run;
  run.source = jsonl.string();
  run.directory = dir.string();
  const fs::path canonical = fs::weakly_canonical(dir);
  run.run_id = canonical.filename().string();
  run.platform = canonical.parent_path().filename().string();
  if (!is_safe_name(run.run_id) || !is_safe_name(run.platform)) {
    throw InputError(jsonl.string(), "",
                     "a run directory named results/<platform>/<run_id>/ with safe names");
  }
  run.complete = false;
  run.incomplete_reason = "run.json missing (the run did not finish); read records.jsonl";
  const RecordsFile records = read_records_file(jsonl);
  for (std::size_t i = 0; i < records.benchmarks.size(); ++i) {
    run.benchmarks.push_back(parse_benchmark_result(
        records.benchmarks[i], records_line_origin(jsonl, records.benchmark_lines[i]), "", limits));
  }
  if (records.truncated_tail) {
    run.incomplete_reason += " (last line " + std::to_string(records.truncated_line) +
                             " truncated: cut short by the interruption, ignored)";
  }
  if (!run.benchmarks.empty()) {
    run.launch.nranks = run.benchmarks.front().nranks;
    run.launch.gpus_per_process = run.benchmarks.front().gpus_per_process;
  }
  check_unique_keys(run.benchmarks, jsonl.string(), "line ", records.benchmark_lines);
  return run;
}

}  // namespace

RunRecord load_run(const fs::path& path, const PlausibilityLimits& limits) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    const fs::path run_json = path / "run.json";
    if (fs::exists(run_json, ec)) {
      RunRecord run = parse_run(load_json_file(run_json, kRunSchema), run_json.string(), limits);
      run.directory = path.string();
      return run;
    }
    const fs::path jsonl = path / "records.jsonl";
    if (fs::exists(jsonl, ec)) return load_records_jsonl(path, jsonl, limits);
    throw InputError(path.string(), "", "a run directory containing run.json or records.jsonl");
  }
  if (!fs::exists(path, ec))
    throw InputError(path.string(), "", "an existing run directory or run.json");
  RunRecord run = parse_run(load_json_file(path, kRunSchema), path.string(), limits);
  run.directory = path.parent_path().string();
  return run;
}

}  // namespace fabricgate
