#pragma once
// Synthetic A/B pairs built as run.json documents and read through the real loader.
#include <string>
#include <vector>

#include "harness/ab/ab_compare.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::testing {

inline ab::AbSide ab_side(const std::string& id, std::map<std::string, std::string> env = {}) {
  ab::AbSide s;
  s.id = id;
  s.label = id == "a" ? "A" : "B";
  s.env = std::move(env);
  for (const auto& [k, v] : s.env) s.items.push_back(k + "=" + v);
  return s;
}

inline ab::LoadedLibraries libs(const std::string& version, const std::string& path) {
  ab::LoadedLibraries l;
  l.nccl_version = version;
  l.nccl_libraries = {path};
  l.mpi_version = "Open MPI 4.1.4";
  return l;
}

inline ab::AbPair ab_pair(int index, const std::vector<json>& a, const std::vector<json>& b,
                          const ab::LoadedLibraries& la = libs("2.28.3",
                                                               "/usr/lib/libnccl.so.2.28.3"),
                          const ab::LoadedLibraries& lb = libs("2.28.3",
                                                               "/usr/lib/libnccl.so.2.28.3")) {
  RunSpec ra;
  ra.run_id = "ab-a-" + std::to_string(index);
  RunSpec rb;
  rb.run_id = "ab-b-" + std::to_string(index);
  ab::AbPair p;
  p.index = index;
  p.a = {to_run(make_run(ra, a)), la};
  p.b = {to_run(make_run(rb, b)), lb};
  return p;
}

}  // namespace fabricgate::testing
