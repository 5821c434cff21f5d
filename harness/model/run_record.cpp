#include "harness/model/run_record.hpp"

#include <fstream>
#include <set>
#include <string_view>
#include <unordered_map>

#include "core/benchmark_key.hpp"
#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/records_file.hpp"

namespace fabricgate {

namespace fs = std::filesystem;

namespace {

// Helpers that add range checks on top of JsonReader; `p` is always a full JSON pointer.
class Fields {
 public:
  Fields(const json& doc, const std::string& origin, const PlausibilityLimits& limits)
      : r_(doc, origin), limits_(limits) {}

  const JsonReader& reader() const { return r_; }

  int int_in(const std::string& p, long long lo, long long hi) const {
    const long long v = r_.integer_at(p);
    if (v < lo || v > hi) {
      r_.fail(p, "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                     "], found " + std::to_string(v));
    }
    return static_cast<int>(v);
  }

  std::string optional_string(const std::string& p) const {
    return r_.find(p) ? r_.string_at(p) : std::string();
  }

  std::map<std::string, std::string> string_map(const std::string& p) const {
    std::map<std::string, std::string> out;
    if (!r_.find(p)) return out;
    for (const auto& [k, v] : r_.object_at(p).items()) {
      if (!v.is_string()) r_.fail(p + "/" + json_pointer_escape(k), "a string, found " + std::string(v.type_name()));
      out[k] = v.get<std::string>();
    }
    return out;
  }

  std::vector<std::string> string_list(const std::string& p) const {
    std::vector<std::string> out;
    if (!r_.find(p)) return out;
    const json& a = r_.array_at(p);
    for (std::size_t i = 0; i < a.size(); ++i) {
      out.push_back(r_.string_at(p + "/" + std::to_string(i)));
    }
    return out;
  }

  // A time: finite, > 0 when `positive`, and below the plausibility ceiling.
  double time_at(const std::string& p, bool positive) const {
    const double v = r_.non_negative_at(p);
    if (positive && v <= 0) r_.fail(p, "a time > 0 us for a measured result, found 0");
    if (v > limits_.max_time_us) {
      r_.fail(p, "a plausible time (<= " + std::to_string(limits_.max_time_us) + " us), found " +
                     std::to_string(v));
    }
    return v;
  }

  double rate_at(const std::string& p) const {
    const double v = r_.non_negative_at(p);
    if (v > limits_.max_rate_GBps) {
      r_.fail(p, "a plausible rate (<= " + std::to_string(limits_.max_rate_GBps) +
                     " GB/s), found " + std::to_string(v));
    }
    return v;
  }

  std::vector<double> series(const std::string& p, bool is_time, bool positive) const {
    std::vector<double> out;
    if (!r_.find(p)) return out;
    const json& a = r_.array_at(p);
    out.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string item = p + "/" + std::to_string(i);
      out.push_back(is_time ? time_at(item, positive) : rate_at(item));
    }
    return out;
  }

  std::map<std::string, long long> count_map(const std::string& p) const {
    std::map<std::string, long long> out;
    if (!r_.find(p)) return out;
    for (const auto& [k, v] : r_.object_at(p).items()) {
      const std::string item = p + "/" + json_pointer_escape(k);
      if (!v.is_number_integer()) r_.fail(item, "an integer count, found " + v.dump());
      const long long n = v.get<long long>();
      if (n < 0) r_.fail(item, "a count >= 0");
      out[k] = n;
    }
    return out;
  }

  const PlausibilityLimits& limits() const { return limits_; }

 private:
  JsonReader r_;
  const PlausibilityLimits& limits_;
};

ResultStatus parse_status(const JsonReader& r, const std::string& p) {
  const std::string s = r.string_at(p);
  if (s == "ok") return ResultStatus::ok;
  if (s == "skipped") return ResultStatus::skipped;
  if (s == "error") return ResultStatus::error;
  if (s == "wrong") return ResultStatus::wrong;
  r.fail(p, "one of ok|skipped|error|wrong, found \"" + s + "\"");
}

// Keys are not path components but end up in JUnit names, annotations and baseline files.
void check_key(const JsonReader& r, const std::string& p, const std::string& key) {
  if (const std::string problem = benchmark_key_problem(key); !problem.empty()) r.fail(p, problem);
}

void require_same_size(const JsonReader& r, const std::string& p, std::size_t n,
                       std::size_t expected) {
  if (n != expected && n != 0) {
    r.fail(p, "as many samples as samples/time_us (" + std::to_string(expected) + "), found " +
                  std::to_string(n));
  }
}

std::vector<Note> parse_notes(const Fields& f, const std::string& p) {
  const JsonReader& r = f.reader();
  std::vector<Note> out;
  if (!r.find(p)) return out;
  const json& notes = r.array_at(p);
  for (std::size_t i = 0; i < notes.size(); ++i) {
    const std::string np = p + "/" + std::to_string(i);
    Note n{r.string_at(np + "/id"), r.string_at(np + "/level"), f.optional_string(np + "/text")};
    if (n.level != "error" && n.level != "warn" && n.level != "note") {
      r.fail(np + "/level", "one of error|warn|note, found \"" + n.level + "\"");
    }
    out.push_back(std::move(n));
  }
  return out;
}

Choice parse_choice(const Fields& f, const std::string& p) {
  const JsonReader& r = f.reader();
  Choice c;
  c.algo = f.count_map(p + "/algo");
  c.proto = f.count_map(p + "/proto");
  c.channels = f.count_map(p + "/channels");
  c.warps = f.count_map(p + "/warps");
  c.funcs = f.count_map(p + "/funcs");
  if (r.find(p + "/events")) {
    c.events = r.integer_at(p + "/events");
    if (*c.events < 0) r.fail(p + "/events", "a count >= 0");
  }
  return c;
}

// The samples and their medians of a result `measured` (status ok) or carrying numbers anyway.
void parse_numbers(const Fields& f, const std::string& p, bool measured, BenchmarkResult& b) {
  const JsonReader& r = f.reader();
  b.samples.time_us = f.series(p + "/samples/time_us", true, measured);
  b.samples.algbw_GBps = f.series(p + "/samples/algbw_GBps", false, false);
  b.samples.busbw_GBps = f.series(p + "/samples/busbw_GBps", false, false);
  if (measured) {
    r.array_at(p + "/samples/time_us");
    if (b.samples.time_us.size() != static_cast<std::size_t>(b.repetitions)) {
      r.fail(p + "/samples/time_us", "one sample per repetition (" +
                                         std::to_string(b.repetitions) + "), found " +
                                         std::to_string(b.samples.time_us.size()));
    }
  }
  require_same_size(r, p + "/samples/algbw_GBps", b.samples.algbw_GBps.size(),
                    b.samples.time_us.size());
  require_same_size(r, p + "/samples/busbw_GBps", b.samples.busbw_GBps.size(),
                    b.samples.time_us.size());
  b.time_us = f.time_at(p + "/time_us", measured);
  b.algbw_GBps = r.find(p + "/algbw_GBps") ? f.rate_at(p + "/algbw_GBps") : 0.0;
  if (r.find(p + "/busbw_GBps") && !r.at(p + "/busbw_GBps").is_null()) {
    b.busbw_GBps = f.rate_at(p + "/busbw_GBps");
  }
  if (r.find(p + "/warmup_us")) b.warmup_us = f.time_at(p + "/warmup_us", false);
}

}  // namespace

BenchmarkResult parse_benchmark_result(const json& doc, const std::string& origin,
                                       const std::string& pointer,
                                       const PlausibilityLimits& limits) {
  const Fields f(doc, origin, limits);
  const JsonReader& r = f.reader();
  const std::string& p = pointer;
  r.object_at(p.empty() ? "" : p);
  BenchmarkResult b;
  b.key = r.string_at(p + "/key");
  check_key(r, p + "/key", b.key);
  b.family = r.string_at(p + "/family");
  b.backend = r.string_at(p + "/backend");
  b.op = r.string_at(p + "/op");
  if (r.find(p + "/params")) b.params = r.object_at(p + "/params");
  const long long bytes = r.integer_at(p + "/bytes");
  if (bytes < 0 || static_cast<unsigned long long>(bytes) > limits.max_bytes) {
    r.fail(p + "/bytes", "a size in bytes in [0, 2^50], found " + std::to_string(bytes));
  }
  b.bytes = static_cast<std::uint64_t>(bytes);
  b.nranks = f.int_in(p + "/nranks", 1, limits.max_ranks);
  b.gpus_per_process = r.find(p + "/gpus_per_process") ? f.int_in(p + "/gpus_per_process", 0, 64) : 1;
  b.status = parse_status(r, p + "/status");
  b.message = f.optional_string(p + "/message");
  b.notes = parse_notes(f, p + "/notes");
  if (r.find(p + "/choice")) b.choice = parse_choice(f, p + "/choice");
  if (r.find(p + "/transport")) {
    b.transport = TransportSeen{f.optional_string(p + "/transport/network"),
                                f.string_list(p + "/transport/transports")};
  }
  // Only ok results must carry numbers (the bench writes none for skipped/error/wrong); numbers
  // that are present are validated whatever the status.
  const bool measured = b.status == ResultStatus::ok;
  const bool has_numbers = r.find(p + "/samples") || r.find(p + "/time_us");
  // The bench writes the planned repetitions and iterations for every status: keep them.
  if (measured || has_numbers || r.find(p + "/repetitions")) {
    b.repetitions = f.int_in(p + "/repetitions", measured ? 1 : 0, 1000000);
  }
  b.iterations = r.find(p + "/iterations") ? f.int_in(p + "/iterations", 0, 1000000000) : 0;
  if (r.find(p + "/busbw_factor")) b.busbw_factor = r.non_negative_at(p + "/busbw_factor");
  if (r.find(p + "/wrong_elements")) {
    b.wrong_elements = r.integer_at(p + "/wrong_elements");
    if (b.wrong_elements < 0) r.fail(p + "/wrong_elements", "a count >= 0");
  }
  if (measured || has_numbers) parse_numbers(f, p, measured, b);
  return b;
}

namespace {

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

FingerprintSummary parse_fingerprint(const Fields& f, const std::string& p) {
  const JsonReader& r = f.reader();
  FingerprintSummary fp;
  if (!r.find(p)) return fp;
  r.object_at(p);
  fp.present = true;
  fp.platform_key = f.optional_string(p + "/platform_key");
  fp.identity = r.object_at(p + "/identity");
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
      const std::string q = p + "/gpus/devices/" + std::to_string(i) + "/nvlink/aggregate_GBps_per_direction";
      if (!r.find(q) || r.at(q).is_null()) continue;
      const double v = r.non_negative_at(q);
      if (v > 0 && (fp.nvlink_GBps_per_direction == 0 || v < fp.nvlink_GBps_per_direction)) fp.nvlink_GBps_per_direction = v;
    }
  }
  return fp;
}

}  // namespace

RunRecord parse_run(const json& doc, const std::string& origin, const PlausibilityLimits& limits) {
  const Fields f(doc, origin, limits);
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
    run.scenario_env = f.string_map("/scenario/env");
  }
  run.complete = r.bool_at("/complete");
  run.incomplete_reason = f.optional_string("/incomplete_reason");
  run.started_at = f.optional_string("/started_at");
  run.finished_at = f.optional_string("/finished_at");
  run.metadata = f.string_map("/metadata");
  r.object_at("/launch");
  run.launch.launcher = f.optional_string("/launch/launcher");
  run.launch.nranks = f.int_in("/launch/nranks", 1, limits.max_ranks);
  run.launch.nodes = r.find("/launch/nodes") ? f.int_in("/launch/nodes", 1, limits.max_ranks) : 1;
  run.launch.gpus_per_process =
      r.find("/launch/gpus_per_process") ? f.int_in("/launch/gpus_per_process", 0, 64) : 1;
  if (r.find("/launch/ranks_per_node")) run.launch.ranks_per_node = f.int_in("/launch/ranks_per_node", 0, limits.max_ranks);
  if (r.find("/launch/gpus_per_node")) run.launch.gpus_per_node = f.int_in("/launch/gpus_per_node", 0, limits.max_ranks);
  if (r.find("/launch/nodes_emulated")) run.launch.nodes_emulated = r.bool_at("/launch/nodes_emulated");
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
      n.facts = f.string_map(p + "/facts");
      n.test_override = f.optional_string(p + "/test_override");
      run.nodes.push_back(std::move(n));
    }
  }
  if (r.find("/ranks")) {
    const json& ranks = r.array_at("/ranks");
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const std::string p = "/ranks/" + std::to_string(i);
      run.ranks.push_back(RankInfo{f.int_in(p + "/rank", 0, limits.max_ranks),
                                   f.optional_string(p + "/host"),
                                   r.find(p + "/local_rank") ? f.int_in(p + "/local_rank", 0, limits.max_ranks) : 0,
                                   f.optional_string(p + "/gpu_uuid"),
                                   f.optional_string(p + "/pci_bus_id")});
    }
  }
  run.fingerprint = parse_fingerprint(f, "/fingerprint");
  if (r.find("/capture")) {
    r.object_at("/capture");
    run.capture.path = r.find("/capture/path") ? r.string_at("/capture/path") : "none";
    run.capture.nccl_version = f.optional_string("/capture/nccl_version");
    run.capture.network = f.optional_string("/capture/network");
    run.capture.transports = f.string_list("/capture/transports");
    run.capture.gdrdma = r.find("/capture/gdrdma") ? r.bool_at("/capture/gdrdma") : false;
    run.capture.env_overrides = f.string_map("/capture/env_overrides");
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
  if (!std::ifstream(jsonl, std::ios::binary)) throw InputError(jsonl.string(), "", "cannot open file");
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
  if (!fs::exists(path, ec)) throw InputError(path.string(), "", "an existing run directory or run.json");
  RunRecord run = parse_run(load_json_file(path, kRunSchema), path.string(), limits);
  run.directory = path.parent_path().string();
  return run;
}

}  // namespace fabricgate
