#pragma once
// nccl-tests' names mapped onto fabricgate's key grammar (bench/fixtures/coll/coll_family.cpp):
//   coll/nccl/<op>/<dtype>[/<redop>][/root:R]/bytes:N/ranks:n[/gpp:g]/{oop|ip}[/graph]
// so an imported launch meets the baseline keys of `fabricgate run` for the same measurement.
#include <cstdint>
#include <optional>
#include <string>

namespace fabricgate::import {

struct CollectiveShape {
  std::string op;  // fabricgate's name: all_reduce, all_gather, ...
  bool reduces = false;
  bool rooted = false;
  double busbw_factor = 1;  // nccl-tests' convention (and the bench's), for n ranks
};

// "all_reduce_perf" with n ranks, from the collective's row in core/collective_facts.hpp (the
// bench's factors); nullopt for programs fabricgate has no collective for (alltoallv, hypercube).
std::optional<CollectiveShape> collective_for_program(const std::string& program, int nranks);
// The programs collective_for_program knows, space-separated, for error messages.
std::string known_collective_programs();

// nccl-tests' type names ("float", "half", "f8e4m3", ...) -> fabricgate's ("float32", ...).
std::optional<std::string> fabricgate_dtype(const std::string& nccl_tests_type);

// sum prod min max avg (the same words); nullopt for premulsum ("mulsum") and others.
std::optional<std::string> fabricgate_redop(const std::string& nccl_tests_redop);

struct CollKeyParts {
  std::string op, dtype, redop;  // redop "" when the op does not reduce
  int root = -1;                 // -1 when not rooted
  std::uint64_t bytes = 0;
  int nranks = 0;
  int gpus_per_process = 1;
  bool in_place = false;
  bool graph = false;
};

std::string coll_key(const CollKeyParts& k);

}  // namespace fabricgate::import
