#pragma once
// The per-benchmark "choice" (docs/DESIGN.md BenchmarkResult.choice): which algorithm, protocol
// and channel count NCCL used for the collectives of one benchmark, as value -> how often.
// Plain data shared by the profiler plugin (which fills it) and the JSON writer.
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace fabricgate::capture {

using CountMap = std::map<std::string, std::uint64_t, std::less<>>;

struct ChoiceSummary {
  std::uint64_t events = 0;  // collective events seen (one per collective per communicator)
  CountMap algo;             // "Ring" -> n
  CountMap proto;            // "LL" -> n
  CountMap channels;         // "24" -> n
  CountMap warps;            // "16" -> n
  CountMap funcs;            // "AllReduce" -> n
  CountMap datatypes;        // "ncclFloat32" -> n
  CountMap counts;           // element count "262144" -> n

  bool empty() const { return events == 0; }
};

}  // namespace fabricgate::capture
