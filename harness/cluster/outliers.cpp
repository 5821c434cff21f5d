#include "harness/cluster/outliers.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "harness/stats/statistics.hpp"
#include "harness/verdict/finding_ids.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::cluster {

namespace {

// One key's strongest candidate.
struct Candidate {
  const BenchmarkResult* result = nullptr;
  const RankTiming* rank = nullptr;
  double p_value = 1;
  double others_p50 = 0;
  bool over_margin = false;
};

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::optional<Candidate> candidate_of(const BenchmarkResult& r, const StragglerPolicy& policy) {
  if (r.status != ResultStatus::ok || r.ranks.size() < 2) return std::nullopt;
  const RankTiming* top = &r.ranks.front();
  for (const RankTiming& t : r.ranks) {
    if (t.slowest > top->slowest) top = &t;
  }
  if (top->count < policy.min_samples) return std::nullopt;
  Candidate c;
  c.result = &r;
  c.rank = top;
  const auto n = static_cast<double>(r.ranks.size());
  c.p_value = std::min(1.0, n * binomial_upper_tail(top->count, top->slowest, 1.0 / n));
  std::vector<double> others;
  for (const RankTiming& t : r.ranks) {
    if (&t != top) others.push_back(t.p50_us);
  }
  c.others_p50 = median_of(others);
  c.over_margin = top->p50_us >= policy.margin * c.others_p50 && top->p50_us > 0;
  return c;
}

std::string place_of(const RankTiming& t) {
  std::string out = "host " + (t.host.empty() ? std::string("?") : t.host);
  if (!t.cpu_set.empty()) out += ", CPUs " + t.cpu_set;
  if (t.gpu >= 0) out += fmt::format(", GPU {}", t.gpu);
  return out;
}

}  // namespace

double binomial_upper_tail(int n, int k, double p) {
  if (k <= 0) return 1;
  if (k > n) return 0;
  double sum = 0;
  for (int i = k; i <= n; ++i) {
    const double log_term = std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) +
                            i * std::log(p) + (n - i) * std::log1p(-p);
    sum += std::exp(log_term);
  }
  return std::min(1.0, sum);
}

std::vector<verdict::ClusterFinding> find_stragglers(const std::vector<BenchmarkResult>& results,
                                                     const StragglerPolicy& policy) {
  std::vector<Candidate> tested;
  for (const BenchmarkResult& r : results) {
    if (auto c = candidate_of(r, policy)) tested.push_back(*c);
  }
  std::vector<double> p_values;
  for (const Candidate& c : tested) p_values.push_back(c.p_value);
  const std::vector<double> adjusted = stats::holm_adjust(p_values);

  // Per rank: the keys it straggled in, and the one with the largest pace ratio.
  struct Blame {
    std::vector<std::size_t> keys;  // indices into tested
  };
  std::map<int, Blame> blamed;
  for (std::size_t i = 0; i < tested.size(); ++i) {
    if (adjusted[i] <= policy.alpha && tested[i].over_margin)
      blamed[tested[i].rank->rank].keys.push_back(i);
  }
  std::vector<verdict::ClusterFinding> out;
  for (const auto& [rank, blame] : blamed) {
    std::size_t worst = blame.keys.front();
    for (const std::size_t i : blame.keys) {
      const double ratio = tested[i].rank->p50_us / tested[i].others_p50;
      if (ratio > tested[worst].rank->p50_us / tested[worst].others_p50) worst = i;
    }
    const Candidate& c = tested[worst];
    const RankTiming& t = *c.rank;
    // The host is to blame only when the straggler is alone on it.
    std::set<std::string> shared;
    for (const RankTiming& o : c.result->ranks) {
      if (o.rank != t.rank) shared.insert(o.host);
    }
    verdict::ClusterFinding f;
    f.id = verdict::finding_id::straggler;
    f.fails_gate = true;
    f.node = shared.count(t.host) == 0 ? t.host : std::string();
    f.field = fmt::format("rank {}", t.rank);
    f.key = c.result->key;
    f.text = fmt::format(
        "rank {} ({}) held the others back in {} of {} keys; worst {}: slowest in {} of {} "
        "samples (chance 1/{}, Holm p = {:.2g}), pace p50 {:.1f} us = {:.2f}x the other ranks' "
        "median {:.1f} us (run delay p50 {:.1f} us){}",
        t.rank, place_of(t), blame.keys.size(), tested.size(), c.result->key, t.slowest, t.count,
        c.result->ranks.size(), adjusted[worst], t.p50_us, t.p50_us / c.others_p50, c.others_p50,
        t.wait_p50_us, f.node.empty() ? "; other ranks share its host, so no node is blamed" : "");
    out.push_back(std::move(f));
  }
  return out;
}

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

namespace {

std::string shown(const std::string& value) {
  return value.empty() ? "(none)" : "\"" + value + "\"";
}

// "a, b, c" shortened to the first few names and a count: a finding on 1,024 nodes stays one line.
std::string name_list(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 5;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > kShown) out += " and " + std::to_string(names.size() - kShown) + " more";
  return out;
}

}  // namespace

std::vector<verdict::ClusterFinding> check_cluster_consistency(
    const std::vector<NodeRecord>& nodes) {
  std::vector<verdict::ClusterFinding> out;
  if (nodes.size() < 2) return out;
  std::set<std::string> fields;
  for (const NodeRecord& n : nodes) {
    for (const auto& [k, v] : n.facts) fields.insert(k);
  }
  for (const std::string& field : fields) {
    std::map<std::string, std::vector<std::string>> by_value;  // value -> nodes (absent = "")
    for (const NodeRecord& n : nodes) {
      const auto it = n.facts.find(field);
      by_value[it == n.facts.end() ? std::string() : it->second].push_back(n.name);
    }
    if (by_value.size() < 2) continue;
    const auto majority = std::max_element(
        by_value.begin(), by_value.end(),
        [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
    const bool strict = majority->second.size() * 2 > nodes.size();
    if (strict) {
      for (const auto& [value, names] : by_value) {
        if (value == majority->first) continue;
        for (const std::string& node : names) {
          out.push_back({verdict::finding_id::node_mismatch, true, node, field,
                         "node " + node + ": " + field + " " + shown(value) + " differs from " +
                             shown(majority->first) + " on " +
                             std::to_string(majority->second.size()) + " of " +
                             std::to_string(nodes.size()) + " nodes",
                         ""});
        }
      }
      continue;
    }
    std::string text = field + " differs between nodes with no majority:";
    std::vector<std::string> all;
    for (const auto& [value, names] : by_value) {
      text += " " + shown(value) + " on " + name_list(names) + ";";
      all.insert(all.end(), names.begin(), names.end());
    }
    text.pop_back();
    out.push_back({verdict::finding_id::node_mismatch, true, name_list(all), field, text, ""});
  }
  return out;
}

}  // namespace fabricgate::cluster
