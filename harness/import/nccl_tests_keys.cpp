#include "harness/import/nccl_tests_keys.hpp"

#include <array>
#include <cstdint>
#include <string_view>
#include <utility>

#include "core/collective_facts.hpp"

namespace fabricgate::import {

std::optional<CollectiveShape> collective_for_program(const std::string& program, int nranks) {
  const CollectiveFacts* facts = collective_for_nccl_tests_program(program);
  if (!facts) return std::nullopt;
  return CollectiveShape{std::string(facts->name), facts->reduces, facts->rooted,
                         facts->busbw_factor(nranks)};
}

std::string known_collective_programs() {
  std::string known;
  for (const CollectiveFacts& c : kCollectives) {
    if (c.nccl_tests_program.empty()) continue;
    if (!known.empty()) known += ' ';
    known += c.nccl_tests_program;
  }
  return known;
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
