#include "core/rank_timing.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace fabricgate {

namespace {

// Nearest-rank percentile of sorted values (q in (0, 1]).
double percentile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

}  // namespace

void summarise_paces(RankTiming& t, const std::vector<double>& paces_us) {
  std::vector<double> sorted = paces_us;
  std::sort(sorted.begin(), sorted.end());
  t.count = static_cast<int>(sorted.size());
  t.p50_us = percentile_sorted(sorted, 0.50);
  t.p99_us = percentile_sorted(sorted, 0.99);
  t.max_us = sorted.empty() ? 0 : sorted.back();
  const std::size_t kept = std::min(paces_us.size(), kRankSampleCap);
  t.sample.assign(paces_us.begin(), paces_us.begin() + static_cast<std::ptrdiff_t>(kept));
}

std::vector<std::vector<double>> rank_paces(const std::vector<std::vector<double>>& wall,
                                            const std::vector<std::vector<double>>& off_cpu,
                                            const std::vector<std::vector<double>>& cpu) {
  std::vector<std::vector<double>> paces(wall.size());
  for (std::size_t r = 0; r < wall.size(); ++r) {
    paces[r].resize(wall[r].size());
    for (std::size_t i = 0; i < wall[r].size(); ++i) {
      // The least CPU time any rank got in this sample; every rank must have a positive one.
      bool timed = true;
      double least = 0;
      for (std::size_t o = 0; o < wall.size() && timed; ++o) {
        timed = o < cpu.size() && i < cpu[o].size() && cpu[o][i] > 0;
        if (timed) least = o == 0 ? cpu[o][i] : std::min(least, cpu[o][i]);
      }
      const double off = r < off_cpu.size() && i < off_cpu[r].size() ? off_cpu[r][i] : 0.0;
      paces[r][i] = timed ? wall[r][i] * least / cpu[r][i] : wall[r][i] + off;
    }
  }
  return paces;
}

std::vector<RankTiming> rank_timings(const std::vector<std::vector<double>>& paces,
                                     const std::vector<std::vector<double>>& waits) {
  std::vector<RankTiming> out(paces.size());
  const std::size_t samples = paces.empty() ? 0 : paces.front().size();
  for (std::size_t r = 0; r < paces.size(); ++r) {
    out[r].rank = static_cast<int>(r);
    summarise_paces(out[r], paces[r]);
    if (r < waits.size()) {
      std::vector<double> w = waits[r];
      std::sort(w.begin(), w.end());
      out[r].wait_p50_us = percentile_sorted(w, 0.50);
    }
  }
  for (std::size_t i = 0; i < samples; ++i) {
    std::size_t slowest = 0;
    for (std::size_t r = 1; r < paces.size(); ++r) {
      if (i < paces[r].size() && paces[r][i] > paces[slowest][i]) slowest = r;
    }
    if (!paces.empty()) ++out[slowest].slowest;
  }
  return out;
}

nlohmann::json to_json(const std::vector<RankTiming>& ranks) {
  nlohmann::json a = nlohmann::json::array();
  for (const RankTiming& t : ranks) {
    a.push_back({{"rank", t.rank},
                 {"host", t.host},
                 {"cpu_set", t.cpu_set},
                 {"gpu", t.gpu},
                 {"count", t.count},
                 {"p50_us", t.p50_us},
                 {"p99_us", t.p99_us},
                 {"max_us", t.max_us},
                 {"wait_p50_us", t.wait_p50_us},
                 {"slowest", t.slowest},
                 {"sample_us", t.sample}});
  }
  return a;
}

std::vector<RankTiming> parse_rank_timings(const JsonReader& r, const std::string& p, int nranks) {
  const nlohmann::json& a = r.array_at(p);
  if (static_cast<int>(a.size()) != nranks) {
    r.fail(p, "one entry per rank (" + std::to_string(nranks) + "), found " +
                  std::to_string(a.size()));
  }
  std::vector<RankTiming> out;
  std::vector<bool> seen(static_cast<std::size_t>(nranks), false);
  int total_slowest = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string q = p + "/" + std::to_string(i);
    RankTiming t;
    const long long rank = r.integer_at(q + "/rank");
    if (rank < 0 || rank >= nranks) r.fail(q + "/rank", "a rank in [0, nranks)");
    if (seen[static_cast<std::size_t>(rank)]) r.fail(q + "/rank", "each rank once");
    seen[static_cast<std::size_t>(rank)] = true;
    t.rank = static_cast<int>(rank);
    t.host = r.string_at(q + "/host");
    t.cpu_set = r.string_at(q + "/cpu_set");
    const long long gpu = r.integer_at(q + "/gpu");
    if (gpu < -1 || gpu > 1024) r.fail(q + "/gpu", "a device index or -1");
    t.gpu = static_cast<int>(gpu);
    const long long count = r.integer_at(q + "/count");
    if (count < 0 || count > 1000000) r.fail(q + "/count", "a sample count in [0, 1000000]");
    t.count = static_cast<int>(count);
    if (i > 0 && t.count != out.front().count) {
      r.fail(q + "/count", "the same count on every rank (" + std::to_string(out.front().count) +
                               "), found " + std::to_string(t.count));
    }
    t.p50_us = r.non_negative_at(q + "/p50_us");
    t.p99_us = r.non_negative_at(q + "/p99_us");
    t.max_us = r.non_negative_at(q + "/max_us");
    if (t.p50_us > t.p99_us || t.p99_us > t.max_us) {
      r.fail(q + "/p99_us", "p50_us <= p99_us <= max_us");
    }
    t.wait_p50_us = r.non_negative_at(q + "/wait_p50_us");
    const long long slowest = r.integer_at(q + "/slowest");
    if (slowest < 0 || slowest > count) r.fail(q + "/slowest", "a count in [0, count]");
    t.slowest = static_cast<int>(slowest);
    total_slowest += t.slowest;
    const nlohmann::json& s = r.array_at(q + "/sample_us");
    if (s.size() > kRankSampleCap || static_cast<long long>(s.size()) > count) {
      r.fail(q + "/sample_us", "at most min(count, " + std::to_string(kRankSampleCap) + ") values");
    }
    for (std::size_t k = 0; k < s.size(); ++k) {
      t.sample.push_back(r.non_negative_at(q + "/sample_us/" + std::to_string(k)));
    }
    out.push_back(std::move(t));
  }
  if (!out.empty() && total_slowest != out.front().count) {
    r.fail(p, "slowest shares summing to the sample count (" + std::to_string(out.front().count) +
                  "), found " + std::to_string(total_slowest));
  }
  std::sort(out.begin(), out.end(),
            [](const RankTiming& x, const RankTiming& y) { return x.rank < y.rank; });
  return out;
}

}  // namespace fabricgate
