#pragma once
// nvbandwidth's JSON (`nvbandwidth -j`): {"nvbandwidth": {"version", "git_version", "CUDA Runtime
// Version", "Driver Version", "GPU Device list", "testcases": [{"name", "status",
// "bandwidth_description", "bandwidth_matrix": [[".." | "N/A"]], "sum"}]}}. Matrices are strings
// of GB/s (decimal); a testcase that writes several matrices (the bidirectional device-to-device
// ones: read1/write1, read2/write2, total) has them appended row-wise into one list, total last.
// The JSON does not record the buffer size (-b) or the statistic (median, or mean with -m).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabricgate::import {

struct NvbandwidthTestcase {
  std::string name;
  std::string status;  // Passed | Waived | Error | Running (died in it) | Not Found
  std::string error;
  std::string description;
  // bandwidth_matrix as read: rows of optional values (N/A = none); GB/s.
  std::vector<std::vector<std::optional<double>>> matrix;
  std::string pointer;  // "/nvbandwidth/testcases/3", for errors
};

struct NvbandwidthOutput {
  std::string file;
  std::string version;  // "v0.8"
  std::string driver_version;
  std::string cuda_runtime_version;
  std::string hostname;
  std::vector<std::string> gpus;  // "NVIDIA H200 (00000000:06:00)" per device index
  std::vector<NvbandwidthTestcase> testcases;
};

NvbandwidthOutput parse_nvbandwidth_json(std::string_view text, const std::string& file);

}  // namespace fabricgate::import
