#pragma once
// Per-rank timings of one benchmark (docs/STRAGGLERS.md): what each rank saw in each sample,
// summarised on rank 0 after the timed loop and carried in the record as "ranks". Bounded: a
// summary per rank plus at most kRankSampleCap of its per-sample values.
//
// A rank's pace in one sample = its own per-operation wall time + the time per operation it was
// runnable but not running (Linux schedstat run delay). In a collective that synchronises the
// ranks every rank's wall time is the slowest rank's pace, so the wall time alone cannot say who
// held the others back; the run delay is what the rank itself lost.
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
  double wait_p50_us = 0;      // of the run delay per operation alone
  int slowest = 0;             // samples in which this rank had the largest pace
  std::vector<double> sample;  // first kRankSampleCap paces, in sample order
};

// Fills p50/p99/max/count/sample from one rank's paces (the rest is set by the caller).
void summarise_paces(RankTiming& timing, const std::vector<double>& paces_us);

// `paces[r][i]`, `waits[r][i]`: rank r's pace and run delay in sample i (every rank the same
// number of samples). Slowest shares are counted per sample (ties: the lower rank).
std::vector<RankTiming> rank_timings(const std::vector<std::vector<double>>& paces,
                                     const std::vector<std::vector<double>>& waits);

nlohmann::json to_json(const std::vector<RankTiming>& ranks);

// Strict reader of "ranks" at pointer `p`: every rank in [0, nranks) once, counts equal, shares
// within counts, percentiles ordered (p50 <= p99 <= max), sample no longer than count and the cap.
std::vector<RankTiming> parse_rank_timings(const JsonReader& r, const std::string& p, int nranks);

}  // namespace fabricgate
