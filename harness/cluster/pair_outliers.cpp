#include "harness/cluster/pair_outliers.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "harness/stats/statistics.hpp"
#include "harness/verdict/finding_ids.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::cluster {

namespace {

struct PairResult {
  const BenchmarkResult* result;
  std::string a;
  std::string b;
};

std::string ratio_text(double r) { return fmt::format("{:.2f}x", r); }

std::string rate_text(double GBps) { return fmt::format("{:.3g} GB/s", GBps); }

struct NodeScore {
  int judged = 0;  // sizes at which the node was judged
  int low = 0;     // sizes at which its pairs fell below the policy
  double worst = 1e300;
  std::string worst_size;
};

}  // namespace

std::vector<verdict::ClusterFinding> find_pair_outliers(const std::vector<BenchmarkResult>& results,
                                                        const PairOutlierPolicy& policy) {
  // (backend, bytes) -> that size's pairs
  std::map<std::pair<std::string, std::uint64_t>, std::vector<PairResult>> groups;
  for (const BenchmarkResult& r : results) {
    if (r.family != "nodepairs" || r.op != "sendrecv" || r.status != ResultStatus::ok ||
        r.algbw_GBps <= 0)
      continue;
    const auto it = r.params.find("nodes");
    if (it == r.params.end() || !it->is_array() || it->size() != 2 || !(*it)[0].is_string() ||
        !(*it)[1].is_string())
      continue;
    groups[{r.backend, r.bytes}].push_back(
        {&r, (*it)[0].get<std::string>(), (*it)[1].get<std::string>()});
  }
  std::vector<verdict::ClusterFinding> slow_pairs;
  std::map<std::string, NodeScore> scores;
  for (const auto& [group, pairs] : groups) {
    if (pairs.size() < policy.min_pairs) continue;
    std::vector<double> rates;
    rates.reserve(pairs.size());
    for (const PairResult& p : pairs) rates.push_back(p.result->algbw_GBps);
    const double group_median = stats::median(rates);
    const std::string size = verdict::format_bytes(group.second);
    for (const PairResult& p : pairs) {
      const double rate = p.result->algbw_GBps;
      if (group_median > 0 && rate < policy.slow_pair_fraction * group_median) {
        slow_pairs.push_back({verdict::finding_id::slow_pair, false, p.a + "+" + p.b, p.result->key,
                              "pair " + p.a + "+" + p.b + " at " + size + ": " + rate_text(rate) +
                                  ", " + ratio_text(rate / group_median) + " the median " +
                                  rate_text(group_median) + " of " + std::to_string(pairs.size()) +
                                  " pairs",
                              ""});
      }
    }
    // Leave-one-out per node: its own pairs against the pairs it is not in.
    std::map<std::string, std::vector<double>> own;
    for (const PairResult& p : pairs) {
      own[p.a].push_back(p.result->algbw_GBps);
      own[p.b].push_back(p.result->algbw_GBps);
    }
    for (const auto& [node, mine] : own) {
      if (mine.size() < 2 || pairs.size() - mine.size() < 2) continue;
      std::vector<double> others;
      others.reserve(pairs.size() - mine.size());
      for (const PairResult& p : pairs) {
        if (p.a != node && p.b != node) others.push_back(p.result->algbw_GBps);
      }
      const double ref = stats::median(others);
      if (ref <= 0) continue;
      const double ratio = stats::median(mine) / ref;
      NodeScore& s = scores[node];
      ++s.judged;
      if (ratio < policy.suspect_fraction) ++s.low;
      if (ratio < s.worst) {
        s.worst = ratio;
        s.worst_size = size + " (" + group.first + ")";
      }
    }
  }
  std::vector<verdict::ClusterFinding> out;
  for (const auto& [node, s] : scores) {
    if (s.low * 2 <= s.judged) continue;
    out.push_back({verdict::finding_id::suspect_node, true, node, "",
                   "node " + node + ": its pairs run below " + ratio_text(policy.suspect_fraction) +
                       " the median of the pairs without it at " + std::to_string(s.low) + " of " +
                       std::to_string(s.judged) + " sizes (worst " + ratio_text(s.worst) + " at " +
                       s.worst_size + "); check its NICs, links and placement",
                   ""});
  }
  out.insert(out.end(), slow_pairs.begin(), slow_pairs.end());
  return out;
}

}  // namespace fabricgate::cluster
