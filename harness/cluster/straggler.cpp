#include "harness/cluster/straggler.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>

#include "harness/stats/statistics.hpp"
#include "harness/verdict/finding_ids.hpp"

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

}  // namespace fabricgate::cluster
