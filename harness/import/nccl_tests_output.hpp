#pragma once
// What one nccl-tests launch reported, as plain data, whichever form it came in (the text table or
// the JSON that `-J` writes). The parsers (nccl_tests_text.hpp, nccl_tests_json.hpp) only read;
// deciding what the figures mean for the gate (keys, P01, P02) is imported_nccl_run.hpp's job.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fabricgate::import {

// One "#  Rank  0 Group  0 Pid 2373 on vm device  0 [0000:00:06] NVIDIA H200" line (text), or one
// entry of the JSON's config/devices list (which nccl-tests writes once per process, see
// nccl_tests_json.cpp).
struct NcclTestsDevice {
  int rank = 0;
  long long pid = 0;
  std::string host;
  int device = 0;
  std::string pci_bus_id;
  std::string gpu_name;
};

// One placement's figures of a row: time per operation (µs, averaged over `iters` by nccl-tests),
// and #wrong (absent when nccl-tests ran without data checks, -c 0: it prints N/A).
struct NcclTestsFigures {
  double time_us = 0;
  double algbw_GBps = 0;
  double busbw_GBps = 0;
  std::optional<long long> wrong;
};

struct NcclTestsRow {
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
  std::string type;   // nccl-tests' name: float, half, bfloat16, int8, ...
  std::string redop;  // sum, prod, max, min, avg, none
  int root = -1;
  std::optional<NcclTestsFigures> out_of_place;
  std::optional<NcclTestsFigures> in_place;
  int line = 0;  // where it was read (text: line number; JSON: 0)
};

struct NcclTestsOutput {
  std::string file;
  std::string format;               // "text" | "json"
  std::string tool_version;         // "2.19.6"; the JSON does not record it ("")
  std::string json_format_version;  // the JSON's "version" (3 today); "" for text
  std::string nccl_version;         // "2.28.3" from nccl-library=22803 or the JSON's nccl_version
  std::string program;              // "all_reduce_perf"
  int nthreads = 1;
  int ngpus = 1;
  long long warmup_iters = 0;
  long long iters = 0;
  long long agg_iters = 1;
  int validation = 0;     // -c: data checked
  int graph = 0;          // -G: CUDA-graph launches
  bool cpu_time = false;  // -C 1: the time columns are host time, not GPU time
  // Text: one per rank. JSON: one per process (its first GPU only).
  std::vector<NcclTestsDevice> devices;
  int nranks = 0;  // ranks (GPUs) taking part
  std::vector<NcclTestsRow> rows;
  std::optional<double> average_busbw_ignored;  // "Avg bus bandwidth": never a figure (P03)
  std::string measured_at;  // JSON start_time (local time of the GPU host, no zone); "" for text
};

}  // namespace fabricgate::import
