#include "harness/import/imported_nccl_run.hpp"

#include <map>
#include <set>

#include "core/errors.hpp"
#include "harness/import/nccl_tests_keys.hpp"
#include "harness/import/source_text.hpp"

namespace fabricgate::import {

namespace {

struct LaunchShape {
  int nranks = 0;
  int gpus_per_process = 1;
  int nodes = 1;
  int ranks_per_node = 0;
};

[[noreturn]] void refuse(const NcclTestsOutput& o, const std::string& what) {
  throw InputError(o.file, o.format == "json" ? "/config" : "", what);
}

LaunchShape check_launch(const NcclTestsOutput& o) {
  if (o.cpu_time) {
    refuse(o,
           "the time columns are host (CPU) time (nccl-tests -C 1); fabricgate compares GPU-timed "
           "operations: rerun without -C");
  }
  if (o.nthreads > 1) {
    refuse(o, "nThread " + std::to_string(o.nthreads) +
                  ": several threads per process is a mode fabricgate does not measure (its "
                  "in-process mode drives "
                  "g GPUs from one thread, P02): rerun with -t 1 (and -g g for in-process)");
  }
  if (o.nranks < 2) {
    refuse(o, "P01: " + std::to_string(o.nranks) +
                  " rank: a collective on one GPU exchanges nothing and measures no fabric "
                  "(fabricgate run refuses it "
                  "too); run nccl-tests on at least 2 GPUs (one process per GPU, or -g 2 in one "
                  "process)");
  }
  LaunchShape s;
  s.nranks = o.nranks;
  s.gpus_per_process = o.ngpus;
  std::map<std::string, int> per_host;
  std::set<std::pair<std::string, std::string>> gpus;
  std::map<std::pair<std::string, long long>, int> per_process;
  for (const NcclTestsDevice& d : o.devices) {
    per_host[d.host] += o.format == "json" ? o.ngpus : 1;
    ++per_process[{d.host, d.pid}];
    if (!gpus.insert({d.host, d.pci_bus_id}).second) {
      refuse(o, "P01: ranks share GPU " + d.pci_bus_id + " on " + d.host + " (rank " +
                    std::to_string(d.rank) + "): their figures are not a fabric's");
    }
  }
  if (o.format == "text") {
    for (const auto& [process, n] : per_process) {
      if (n != o.ngpus) {
        refuse(o, "nGpus " + std::to_string(o.ngpus) + " per process, but pid " +
                      std::to_string(process.second) + " on " + process.first + " has " +
                      std::to_string(n) + " device lines");
      }
    }
  }
  s.nodes = static_cast<int>(per_host.size());
  s.ranks_per_node = per_host.begin()->second;
  for (const auto& [host, n] : per_host) s.ranks_per_node = std::min(s.ranks_per_node, n);
  return s;
}

[[noreturn]] void row_error(const NcclTestsOutput& o, const NcclTestsRow& r, std::size_t index,
                            const std::string& what) {
  if (o.format == "text") fail_at_line(o.file, r.line, what);
  throw InputError(o.file, "/results/" + std::to_string(index), what);
}

json figures_record(const NcclTestsOutput& o, const NcclTestsRow& row, const NcclTestsFigures& f,
                    const CollectiveShape& shape, const CollKeyParts& parts,
                    const std::string& source_name) {
  const double algbw =
      static_cast<double>(row.bytes) / f.time_us / 1e3;  // bytes/µs/1e3 = decimal GB/s (P08)
  const double busbw = algbw * shape.busbw_factor;
  json params = {{"dtype", parts.dtype},
                 {"inplace", parts.in_place},
                 {"source_tool", "nccl-tests"},
                 {"source_version", o.tool_version.empty()
                                        ? "unrecorded (-J JSON v" + o.json_format_version + ")"
                                        : o.tool_version},
                 {"source_file", source_name},
                 {"data_checked", o.validation != 0 && f.wrong.has_value()},
                 {"warmup_iters", o.warmup_iters}};
  if (row.line > 0) params["source_line"] = row.line;
  if (!parts.redop.empty()) params["redop"] = parts.redop;
  if (parts.root >= 0) params["root"] = parts.root;
  if (parts.graph) params["graph"] = true;
  const long long wrong = f.wrong.value_or(0);
  json notes = json::array();
  if (!f.wrong) {
    // With checks on, nccl-tests still prints N/A for rows it cannot check (in-place alltoall):
    // blaming -c 0 there would contradict the file's own "Validation: 1".
    notes.push_back(
        {{"id", "import"},
         {"level", "note"},
         {"text", o.validation != 0
                      ? "nccl-tests did not check this row (#wrong N/A although the file says "
                        "validation was on, as for in-place alltoall): not verified"
                      : "nccl-tests ran without data checks (-c 0): #wrong N/A, the results were "
                        "not verified"}});
  }
  return json{
      {"key", coll_key(parts)},
      {"family", "coll"},
      {"backend", "nccl"},
      {"op", shape.op},
      {"params", params},
      {"bytes", row.bytes},
      {"nranks", parts.nranks},
      {"gpus_per_process", parts.gpus_per_process},
      {"status", wrong > 0 ? "wrong" : "ok"},
      {"message",
       wrong > 0 ? "nccl-tests counted " + std::to_string(wrong) + " wrong elements (#wrong)" : ""},
      {"repetitions", 1},
      {"iterations", o.iters * std::max(o.agg_iters, 1LL)},
      {"samples", {{"time_us", {f.time_us}}, {"algbw_GBps", {algbw}}, {"busbw_GBps", {busbw}}}},
      {"time_us", f.time_us},
      {"algbw_GBps", algbw},
      {"busbw_GBps", busbw},
      {"busbw_factor", shape.busbw_factor},
      {"wrong_elements", wrong},
      {"notes", notes},
  };
}

void add_launch(const NcclTestsOutput& o, const LaunchShape& s, json& benchmarks,
                std::map<std::string, std::string>& seen) {
  const auto shape = collective_for_program(o.program, s.nranks);
  if (!shape) {
    refuse(o, "no fabricgate collective for nccl-tests program \"" + o.program +
                  "\" (known: " + known_collective_programs() + ")");
  }
  const std::string source_name = base_name(o.file);
  for (std::size_t i = 0; i < o.rows.size(); ++i) {
    const NcclTestsRow& row = o.rows[i];
    CollKeyParts parts;
    parts.op = shape->op;
    const auto dtype = fabricgate_dtype(row.type);
    if (!dtype)
      row_error(o, row, i,
                "a data type fabricgate measures (int8 ... double, half, bfloat16, f8e4m3, "
                "f8e5m2), found \"" +
                    row.type + "\"");
    parts.dtype = *dtype;
    if (shape->reduces) {
      const auto redop = fabricgate_redop(row.redop);
      if (!redop)
        row_error(
            o, row, i,
            "a reduction fabricgate measures (sum prod min max avg), found \"" + row.redop + "\"");
      parts.redop = *redop;
    }
    if (shape->rooted) {
      if (row.root < 0 || row.root >= s.nranks)
        row_error(o, row, i, "a root rank in [0, " + std::to_string(s.nranks) + ")");
      parts.root = row.root;
    }
    parts.bytes = row.bytes;
    parts.nranks = s.nranks;
    parts.gpus_per_process = s.gpus_per_process;
    parts.graph = o.graph != 0;
    if (row.bytes == 0) continue;  // nccl-tests prints 0-byte rows; fabricgate has no such key
    for (const bool in_place : {false, true}) {
      const auto& figures = in_place ? row.in_place : row.out_of_place;
      if (!figures) continue;
      parts.in_place = in_place;
      json record = figures_record(o, row, *figures, *shape, parts, source_name);
      const std::string key = record["key"].get<std::string>();
      const std::string where = o.file + (row.line > 0 ? " line " + std::to_string(row.line) : "");
      if (const auto [it, fresh] = seen.emplace(key, where); !fresh) {
        row_error(
            o, row, i,
            "each key once per run, but " + key + " was already read from " + it->second +
                " (one launch per run directory: import repeated launches into separate ones)");
      }
      benchmarks.push_back(std::move(record));
    }
  }
}

json ranks_of(const NcclTestsOutput& o) {
  json ranks = json::array();
  std::map<std::string, int> local;
  for (const NcclTestsDevice& d : o.devices) {
    ranks.push_back({{"rank", d.rank},
                     {"host", d.host},
                     {"local_rank", local[d.host]++},
                     {"node", d.host},
                     {"gpu_uuid", ""},
                     {"pci_bus_id", d.pci_bus_id},
                     {"gpu_name", d.gpu_name}});
  }
  return ranks;
}

}  // namespace

ImportResult build_nccl_tests_run(const std::vector<NcclTestsOutput>& launches,
                                  const std::vector<SourceFile>& files, const ImportContext& ctx) {
  if (launches.empty()) throw InputError("fabricgate import nccl-tests: at least one FILE");
  ImportResult result;
  const NcclTestsOutput& first = launches.front();
  const LaunchShape shape = check_launch(first);
  // Up to two keys per row (out of place, in place): bounded before any record is built.
  std::size_t planned = 0;
  for (const NcclTestsOutput& o : launches) {
    planned += 2 * o.rows.size();
    check_import_keys(planned, o.file, "");
  }
  json benchmarks = json::array();
  std::map<std::string, std::string> seen;
  std::set<std::string> versions, nccl_versions;
  for (const NcclTestsOutput& o : launches) {
    const LaunchShape s = check_launch(o);
    if (s.nranks != shape.nranks || s.gpus_per_process != shape.gpus_per_process) {
      refuse(o, std::to_string(s.nranks) + " ranks x " + std::to_string(s.gpus_per_process) +
                    " GPUs per process, but " + first.file + " has " +
                    std::to_string(shape.nranks) + " x " + std::to_string(shape.gpus_per_process) +
                    ": one run directory holds one launch shape; import them separately");
    }
    add_launch(o, s, benchmarks, seen);
    versions.insert(o.tool_version.empty() ? "unrecorded" : o.tool_version);
    if (!o.nccl_version.empty()) nccl_versions.insert(o.nccl_version);
    if (o.average_busbw_ignored) {
      result.messages.push_back(
          base_name(o.file) +
          ": \"Avg bus bandwidth\" ignored (an average over sizes describes no size, P03)");
    }
  }
  if (benchmarks.empty())
    throw InputError(first.file, "", "no result rows with a size above 0 bytes");
  if (nccl_versions.size() > 1) {
    throw InputError(launches.back().file, "",
                     "the same NCCL library as " + first.file + " (NCCL " + *nccl_versions.begin() +
                         " and " + *nccl_versions.rbegin() + " in one run)");
  }
  std::string version_list;
  for (const std::string& v : versions) version_list += (version_list.empty() ? "" : ",") + v;
  json run = imported_run_skeleton(ctx, "nccl-tests", version_list, files);
  run["launch"] = {{"launcher", "imported:nccl-tests"},
                   {"nranks", shape.nranks},
                   {"nodes", shape.nodes},
                   {"gpus_per_process", shape.gpus_per_process},
                   {"ranks_per_node", shape.ranks_per_node},
                   {"gpus_per_node", shape.ranks_per_node},
                   {"nodes_emulated", false},
                   {"nccl_version", first.nccl_version}};
  if (first.format == "text") run["ranks"] = ranks_of(first);
  if (!first.measured_at.empty()) run["metadata"]["measured_at_local"] = first.measured_at;
  run["capture"] = {{"path", "none"},  {"nccl_version", first.nccl_version},
                    {"network", ""},   {"transports", json::array()},
                    {"gdrdma", false}, {"env_overrides", json::object()}};
  run["benchmarks"] = std::move(benchmarks);
  result.run = std::move(run);
  return result;
}

}  // namespace fabricgate::import
