#include "harness/import/nccl_tests_keys.hpp"

#include <array>
#include <cstdint>
#include <string_view>
#include <utility>

namespace fabricgate::import {

std::optional<CollectiveShape> collective_for_program(const std::string& program, int nranks) {
  const std::string_view suffix = "_perf";
  if (program.size() <= suffix.size() ||
      program.compare(program.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return std::nullopt;
  }
  const std::string op = program.substr(0, program.size() - suffix.size());
  const double n = nranks;
  const double ring = (n - 1) / n;  // each rank sends/receives (n-1)/n of the data
  if (op == "all_reduce") return CollectiveShape{op, true, false, 2 * ring};
  if (op == "all_gather") return CollectiveShape{op, false, false, ring};
  if (op == "reduce_scatter") return CollectiveShape{op, true, false, ring};
  if (op == "alltoall") return CollectiveShape{op, false, false, ring};
  if (op == "broadcast") return CollectiveShape{op, false, true, 1};
  if (op == "reduce") return CollectiveShape{op, true, true, 1};
  if (op == "sendrecv") return CollectiveShape{op, false, false, 1};
  if (op == "gather") return CollectiveShape{op, false, true, ring};
  if (op == "scatter") return CollectiveShape{op, false, true, ring};
  return std::nullopt;
}

std::optional<std::string> fabricgate_dtype(const std::string& t) {
  static const std::array<std::pair<std::string_view, std::string_view>, 14> names{{
      {"int8", "int8"},
      {"uint8", "uint8"},
      {"int32", "int32"},
      {"uint32", "uint32"},
      {"int64", "int64"},
      {"uint64", "uint64"},
      {"half", "float16"},
      {"float", "float32"},
      {"double", "float64"},
      {"bfloat16", "bfloat16"},
      {"f8e4m3", "fp8_e4m3"},
      {"f8e5m2", "fp8_e5m2"},
      {"fp8_e4m3", "fp8_e4m3"},
      {"fp8_e5m2", "fp8_e5m2"},
  }};
  for (const auto& [from, to] : names) {
    if (t == from) return std::string(to);
  }
  return std::nullopt;
}

std::optional<std::string> fabricgate_redop(const std::string& r) {
  if (r == "sum" || r == "prod" || r == "min" || r == "max" || r == "avg") return r;
  return std::nullopt;
}

std::string coll_key(const CollKeyParts& k) {
  std::string key = "coll/nccl/" + k.op + "/" + k.dtype;
  if (!k.redop.empty()) key += "/" + k.redop;
  if (k.root >= 0) key += "/root:" + std::to_string(k.root);
  key += "/bytes:" + std::to_string(k.bytes) + "/ranks:" + std::to_string(k.nranks);
  if (k.gpus_per_process > 1) key += "/gpp:" + std::to_string(k.gpus_per_process);
  key += k.in_place ? "/ip" : "/oop";
  if (k.graph) key += "/graph";
  return key;
}

}  // namespace fabricgate::import
