#pragma once
// Per-rank timings of one benchmark (docs/STRAGGLERS.md): what each rank saw in each sample,
// summarised on rank 0 after the timed loop and carried in the record as "ranks". Bounded: a
// summary per rank plus at most kRankSampleCap of its per-sample values.
//
// A rank's pace in one sample is the time the operation would take at the CPU share the rank got:
// wall x (the least CPU time of any rank in that sample) / its own CPU time (docs/STRAGGLERS.md
// "Why this pace"). In a collective that synchronises the ranks every rank's wall time is the
// slowest rank's, so wall time alone cannot say who held the others back; ranks spin while they
// wait, so the one that held them back is the one that got the least CPU. Without a CPU clock:
// pace = wall + the time off the CPU.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_file.hpp"

namespace fabricgate {

inline constexpr std::size_t kRankSampleCap = 64;

struct RankTiming {
  int rank = 0;
  std::string host;
  std::string cpu_set;  // Cpus_allowed_list of the rank's process, e.g. "0-3"
  int gpu = -1;         // the device it drove, -1 without one
  int count = 0;        // samples summarised
  double p50_us = 0;    // of the pace per operation
  double p99_us = 0;
  double max_us = 0;
  double wait_p50_us = 0;      // of the time off the CPU per operation
  int slowest = 0;             // samples in which this rank had the largest pace
  std::vector<double> sample;  // first kRankSampleCap paces, in sample order
};

// Fills p50/p99/max/count/sample from one rank's paces (the rest is set by the caller).
void summarise_paces(RankTiming& timing, const std::vector<double>& paces_us);

// Paces from what each rank measured in each sample (per operation, us): `wall[r][i]`,
// `off_cpu[r][i]` and `cpu[r][i]` (its CPU time; a rank with an empty row, or a value <= 0 in a
// sample, has none). With every rank's CPU time of a sample, pace = wall x min over ranks of cpu /
// cpu; otherwise pace = wall + off_cpu. Pure.
std::vector<std::vector<double>> rank_paces(const std::vector<std::vector<double>>& wall,
                                            const std::vector<std::vector<double>>& off_cpu,
                                            const std::vector<std::vector<double>>& cpu);

// `paces[r][i]`, `waits[r][i]`: rank r's pace and run delay in sample i (every rank the same
// number of samples). Slowest shares are counted per sample (ties: the lower rank).
std::vector<RankTiming> rank_timings(const std::vector<std::vector<double>>& paces,
                                     const std::vector<std::vector<double>>& waits);

nlohmann::json to_json(const std::vector<RankTiming>& ranks);

// Strict reader of "ranks" at pointer `p`: every rank in [0, nranks) once, counts equal, shares
// within counts, percentiles ordered (p50 <= p99 <= max), sample no longer than count and the cap.
std::vector<RankTiming> parse_rank_timings(const JsonReader& r, const std::string& p, int nranks);

}  // namespace fabricgate
