#include "harness/import/imported_nvbandwidth_run.hpp"

#include <map>
#include <optional>
#include <set>

#include "core/errors.hpp"

namespace fabricgate::import {

namespace {

enum class Shape { host_row, pair_matrix, pair_total, local_row };

struct Mapping {
  std::string family;     // hostcopy | p2p
  std::string engine;     // ce | sm
  std::string direction;  // h2d d2h | write read | local
  Shape shape = Shape::host_row;
  bool column_is_source = false;  // read: the row GPU pulls from the column GPU
  std::string against;            // hostcopy measured under the opposite direction's traffic
};

std::optional<Mapping> mapping_for(const std::string& name) {
  const auto ends = [&](const std::string& s) {
    return name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  const std::string engine = ends("_sm") ? "sm" : "ce";
  const std::string stem = name.substr(0, name.size() - 3);
  if (!ends("_ce") && !ends("_sm")) {
    if (name == "device_local_copy")
      return Mapping{"p2p", "ce", "local", Shape::local_row, false, ""};
    return std::nullopt;
  }
  if (stem == "host_to_device_memcpy")
    return Mapping{"hostcopy", engine, "h2d", Shape::host_row, false, ""};
  if (stem == "device_to_host_memcpy")
    return Mapping{"hostcopy", engine, "d2h", Shape::host_row, false, ""};
  // SM bidirectional host copies are split-warp estimates (half of a shared kernel): no twin.
  if (stem == "host_to_device_bidirectional_memcpy" && engine == "ce")
    return Mapping{"hostcopy", engine, "h2d", Shape::host_row, false, "d2h"};
  if (stem == "device_to_host_bidirectional_memcpy" && engine == "ce")
    return Mapping{"hostcopy", engine, "d2h", Shape::host_row, false, "h2d"};
  if (stem == "device_to_device_memcpy_write")
    return Mapping{"p2p", engine, "write", Shape::pair_matrix, false, ""};
  if (stem == "device_to_device_memcpy_read")
    return Mapping{"p2p", engine, "read", Shape::pair_matrix, true, ""};
  if (stem == "device_to_device_bidirectional_memcpy_write")
    return Mapping{"p2p", engine, "write", Shape::pair_total, false, ""};
  if (stem == "device_to_device_bidirectional_memcpy_read")
    return Mapping{"p2p", engine, "read", Shape::pair_total, false, ""};
  return std::nullopt;
}

struct Cell {
  int row = 0, column = 0;
  std::optional<double> GBps;  // nullopt: N/A, or the testcase failed
};

struct Context {
  const NvbandwidthOutput& out;
  const NvbandwidthTestcase& tc;
  const Mapping& m;
  std::uint64_t bytes;
  std::string source_name;
};

json record_for(const Context& c, const Cell& cell) {
  const Mapping& m = c.m;
  std::string key;
  json params = {{"engine", m.engine},
                 {"source_tool", "nvbandwidth"},
                 {"source_version", c.out.version},
                 {"source_file", c.source_name},
                 {"source_testcase", c.tc.name},
                 {"statistic", "nvbandwidth's median over its samples (mean with -m)"}};
  std::string op = "copy";
  int gpus = 1;
  double transfers = 1;
  if (m.family == "hostcopy") {
    key = "hostcopy/cuda/" + m.direction + "/pinned/gpu:" + std::to_string(cell.column) +
          "/bytes:" + std::to_string(c.bytes);
    if (m.engine == "sm") key += "/engine:sm";
    if (!m.against.empty()) key += "/against:" + m.against;
    params.update(
        {{"direction", m.direction}, {"mode", "uni"}, {"memory", "pinned"}, {"gpu", cell.column}});
    if (!m.against.empty()) params["against"] = m.against;
  } else if (m.shape == Shape::local_row) {
    op = "local_copy";
    key = "p2p/ce/local/gpu:" + std::to_string(cell.column) + "/bytes:" + std::to_string(c.bytes);
    params.update({{"src", cell.column}, {"dst", cell.column}});
  } else {
    const bool bi = m.shape == Shape::pair_total;
    const int src = m.column_is_source ? cell.column : cell.row;
    const int dst = m.column_is_source ? cell.row : cell.column;
    const std::string mode = bi ? "bi" : "uni";
    key = "p2p/" + m.engine + "/" + m.direction + "/" + mode + "/src:" + std::to_string(src) +
          "/dst:" + std::to_string(dst) + "/bytes:" + std::to_string(c.bytes);
    params.update({{"direction", m.direction}, {"mode", mode}, {"src", src}, {"dst", dst}});
    gpus = 2;
    transfers =
        bi ? 2 : 1;  // the bench's bi rate counts both directions' bytes, as nvbandwidth's total
  }
  json rec = {{"key", key},  {"family", m.family},       {"backend", "cuda"},
              {"op", op},    {"params", params},         {"bytes", c.bytes},
              {"nranks", 1}, {"gpus_per_process", gpus}, {"notes", json::array()}};
  if (!cell.GBps || *cell.GBps <= 0) {
    rec["status"] = "error";
    rec["message"] = cell.GBps ? "nvbandwidth reported 0 GB/s"
                               : "nvbandwidth testcase " + c.tc.name + " failed: " + c.tc.error;
    return rec;
  }
  const double rate = *cell.GBps;
  const double time_us = static_cast<double>(c.bytes) * transfers / (rate * 1e3);
  rec.update({{"status", "ok"},
              {"message", ""},
              {"repetitions", 1},
              {"iterations", 0},
              {"samples", {{"time_us", {time_us}}, {"algbw_GBps", {rate}}}},
              {"time_us", time_us},
              {"algbw_GBps", rate},
              {"wrong_elements", 0}});
  return rec;
}

// The cells of a testcase as (row, column, value); a failed testcase yields every cell it would
// have measured, without a value, so its keys show as errors rather than vanish.
std::vector<Cell> cells_of(const NvbandwidthOutput& o, const NvbandwidthTestcase& tc,
                           const Mapping& m) {
  const int n = static_cast<int>(o.gpus.size());
  std::vector<Cell> cells;
  const bool failed = tc.status != "Passed";
  const bool pairs = m.shape == Shape::pair_matrix || m.shape == Shape::pair_total;
  std::size_t first_row = 0;
  if (!failed) {
    const std::size_t rows = tc.matrix.size();
    const std::size_t want = m.shape == Shape::pair_total ? 3 * static_cast<std::size_t>(n)
                             : pairs                      ? static_cast<std::size_t>(n)
                                                          : 1;
    if (rows != want) {
      throw InputError(
          o.file, tc.pointer + "/bandwidth_matrix",
          std::to_string(want) + " rows for " + tc.name + " with " + std::to_string(n) + " GPUs" +
              (m.shape == Shape::pair_total ? " (its three matrices appended, total last)" : "") +
              ", found " + std::to_string(rows));
    }
    if (m.shape == Shape::pair_total) first_row = 2 * static_cast<std::size_t>(n);
  }
  for (int r = 0; r < (pairs ? n : 1); ++r) {
    for (int col = 0; col < n; ++col) {
      if (pairs && r == col) continue;
      Cell c{r, col, std::nullopt};
      if (!failed) {
        c.GBps = tc.matrix[first_row + static_cast<std::size_t>(r)][static_cast<std::size_t>(col)];
        if (!c.GBps) continue;  // N/A: not measured (no peer access, or the diagonal)
      }
      cells.push_back(c);
    }
  }
  return cells;
}

}  // namespace

ImportResult build_nvbandwidth_run(const std::vector<NvbandwidthOutput>& launches,
                                   const std::vector<SourceFile>& files, std::uint64_t buffer_bytes,
                                   const ImportContext& ctx) {
  if (launches.empty()) throw InputError("fabricgate import nvbandwidth: at least one FILE");
  ImportResult result;
  json benchmarks = json::array();
  std::map<std::string, std::string> seen;
  std::set<std::string> versions;
  const NvbandwidthOutput& first = launches.front();
  // One key per measured cell at most: bounded from the matrices' sizes before any record.
  std::size_t planned = 0;
  for (const NvbandwidthOutput& o : launches) {
    const std::size_t n = o.gpus.size();
    for (const NvbandwidthTestcase& tc : o.testcases) {
      planned += n * n;
      check_import_keys(planned, o.file, tc.pointer);
    }
  }
  for (const NvbandwidthOutput& o : launches) {
    if (o.gpus != first.gpus || o.hostname != first.hostname) {
      throw InputError(
          o.file, "/nvbandwidth/GPU Device list",
          "the same GPUs on the same host as " + first.file + " (one machine per run)");
    }
    versions.insert(o.version);
    for (const NvbandwidthTestcase& tc : o.testcases) {
      const auto m = mapping_for(tc.name);
      if (!m) {
        result.messages.push_back(base_name(o.file) + ": " + tc.name +
                                  " not imported (no fabricgate key measures the same copy)");
        continue;
      }
      if (tc.status != "Passed" && tc.status != "Error") {
        result.messages.push_back(base_name(o.file) + ": " + tc.name + " not imported (status " +
                                  tc.status + ")");
        continue;
      }
      const Context c{o, tc, *m, buffer_bytes, base_name(o.file)};
      for (const Cell& cell : cells_of(o, tc, *m)) {
        json rec = record_for(c, cell);
        const std::string key = rec["key"].get<std::string>();
        if (const auto [it, fresh] = seen.emplace(key, o.file + " " + tc.pointer); !fresh) {
          throw InputError(
              o.file, tc.pointer,
              "each key once per run, but " + key + " was already read from " + it->second +
                  " (one launch per run directory: import repeated launches separately)");
        }
        benchmarks.push_back(std::move(rec));
      }
    }
  }
  if (benchmarks.empty())
    throw InputError(first.file, "/nvbandwidth/testcases",
                     "at least one testcase fabricgate imports (see docs/IMPORT.md)");
  std::string version_list;
  for (const std::string& v : versions) version_list += (version_list.empty() ? "" : ",") + v;
  json run = imported_run_skeleton(ctx, "nvbandwidth", version_list, files);
  run["launch"] = {{"launcher", "imported:nvbandwidth"},
                   {"nranks", 1},
                   {"nodes", 1},
                   {"gpus_per_process", 1},
                   {"ranks_per_node", 1},
                   {"gpus_per_node", static_cast<int>(first.gpus.size())},
                   {"nodes_emulated", false}};
  run["ranks"] = json::array({{{"rank", 0},
                               {"host", first.hostname},
                               {"local_rank", 0},
                               {"node", first.hostname},
                               {"gpu_uuid", ""},
                               {"pci_bus_id", ""}}});
  run["metadata"]["driver_version"] = first.driver_version;
  run["metadata"]["cuda_runtime_version"] = first.cuda_runtime_version;
  run["metadata"]["buffer_bytes"] = std::to_string(buffer_bytes);
  std::string gpu_list;
  for (const std::string& g : first.gpus) gpu_list += (gpu_list.empty() ? "" : "; ") + g;
  run["metadata"]["gpus"] = gpu_list;
  run["benchmarks"] = std::move(benchmarks);
  result.run = std::move(run);
  return result;
}

}  // namespace fabricgate::import
