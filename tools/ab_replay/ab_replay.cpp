// ab_replay: A/As simulated from recorded launches, judged by the real sequential decision
// (harness/ab/ab_sequential.hpp) and by the fixed 5-pair design, so the sequential design's
// false-alarm rate and its cost in pairs are measured on real noise rather than assumed.
//
//   ab_replay [--trials N] [--seed S] [--min-pairs 3] [--max-pairs 12] [--baseline F]
//             GROUP=DIR [GROUP=DIR ...]
//
// Every run.json under DIR (but confirm*/ re-measurements) is one launch of GROUP (one machine's
// session: the launches an A/A on that machine could have made). A trial draws 2 x max-pairs
// launches of one group without replacement (groups taken in turn), makes them pairs A B A B ...,
// and adds pairs until the sequential design stops. Both sides are the same configuration, so every
// FAIL is a false alarm. Tolerances: --baseline F's policy (the platform's committed file), else
// the defaults. Prints one line per group and the total: A/As, false FAILs (and the 95 %
// Clopper-Pearson upper bound), not decided, median and p90 pairs to a verdict, the same for the
// fixed design.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "harness/ab/ab_sequential.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/stats/binomial_bound.hpp"

namespace fs = std::filesystem;
using namespace fabricgate;

namespace {

struct Tally {
  std::size_t trials = 0;
  std::size_t fails = 0;        // A/As with a failing key (exit 1)
  std::size_t not_decided = 0;  // exit 3
  std::size_t fixed_fails = 0;
  std::size_t fixed_not_decided = 0;
  std::vector<int> pairs;                       // pairs the sequential design ran
  std::map<std::string, std::size_t> verdicts;  // key verdicts where the series stopped
  void add(const Tally& t) {
    trials += t.trials;
    fails += t.fails;
    not_decided += t.not_decided;
    fixed_fails += t.fixed_fails;
    fixed_not_decided += t.fixed_not_decided;
    pairs.insert(pairs.end(), t.pairs.begin(), t.pairs.end());
    for (const auto& [v, n] : t.verdicts) verdicts[v] += n;
  }
};

int percentile(std::vector<int> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}

void print(const std::string& name, std::size_t launches, const Tally& t, int fixed_pairs) {
  std::printf("%-28s %8zu %6zu %6zu %8.2f%% %7zu %6d %6d %10zu %10zu %6d\n", name.c_str(), launches,
              t.trials, t.fails, 100 * stats::binomial_upper_bound(t.fails, t.trials, 0.95),
              t.not_decided, percentile(t.pairs, 0.5), percentile(t.pairs, 0.9), t.fixed_fails,
              t.fixed_not_decided, fixed_pairs);
}

std::vector<RunRecord> launches_under(const fs::path& dir) {
  std::vector<RunRecord> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().filename() != "run.json") continue;
    // A confirmation re-measures only the keys that failed: not a launch of the whole suite.
    if (e.path().parent_path().filename().string().rfind("confirm", 0) == 0) continue;
    try {
      RunRecord r = load_run(e.path());
      if (r.complete) out.push_back(std::move(r));
    } catch (const std::exception& ex) {
      std::fprintf(stderr, "ab_replay: skipped %s: %s\n", e.path().c_str(), ex.what());
    }
  }
  std::sort(out.begin(), out.end(),
            [](const RunRecord& a, const RunRecord& b) { return a.run_id < b.run_id; });
  return out;
}

ab::AbPair pair_of(int index, const RunRecord& a, const RunRecord& b) {
  ab::AbPair p;
  p.index = index;
  p.a.run = a;
  p.b.run = b;
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    int trials = 400;
    unsigned seed = 1;
    ab::AbSchedule schedule;
    constexpr int kFixedPairs = 5;
    std::string baseline;
    std::vector<std::pair<std::string, fs::path>> groups;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      const auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw InputError(arg + ": expected a value");
        return argv[++i];
      };
      if (arg == "--trials")
        trials = std::stoi(value());
      else if (arg == "--seed")
        seed = static_cast<unsigned>(std::stoul(value()));
      else if (arg == "--min-pairs")
        schedule.min_pairs = std::stoi(value());
      else if (arg == "--max-pairs")
        schedule.max_pairs = std::stoi(value());
      else if (arg == "--baseline")
        baseline = value();
      else if (const auto eq = arg.find('='); eq != std::string::npos && eq > 0)
        groups.emplace_back(arg.substr(0, eq), arg.substr(eq + 1));
      else
        throw InputError(
            arg + ": expected --trials/--seed/--min-pairs/--max-pairs/--baseline or GROUP=DIR");
    }
    ab::check_schedule(schedule);
    if (groups.empty() || trials < 1)
      throw InputError("expected GROUP=DIR arguments and --trials >= 1");
    ab::AbOptions options;
    if (!baseline.empty()) options.policy = load_baseline(baseline).policy;
    const ab::AbSide side = [] {
      ab::AbSide s;
      s.id = "a";
      s.label = "A";
      return s;
    }();
    ab::AbSide side_b = side;
    side_b.id = "b";
    side_b.label = "B";

    std::vector<std::vector<RunRecord>> launches;
    for (const auto& [name, dir] : groups) {
      launches.push_back(launches_under(dir));
      if (launches.back().size() < 4)
        throw InputError(dir.string() + ": fewer than 4 complete launches");
    }
    std::mt19937_64 rng(seed);
    std::vector<Tally> tallies(groups.size());
    for (int t = 0; t < trials; ++t) {
      const std::size_t g = static_cast<std::size_t>(t) % groups.size();
      std::vector<std::size_t> order(launches[g].size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::shuffle(order.begin(), order.end(), rng);
      // Without replacement while the group lasts, then with replacement (a short group).
      std::uniform_int_distribution<std::size_t> any(0, order.size() - 1);
      std::vector<ab::AbPair> pairs;
      for (int p = 0; p < schedule.max_pairs; ++p) {
        const auto pick = [&](std::size_t k) {
          return k < order.size() ? order[k] : order[any(rng)];
        };
        const std::size_t ia = pick(static_cast<std::size_t>(2 * p));
        const std::size_t ib = pick(static_cast<std::size_t>(2 * p + 1));
        pairs.push_back(pair_of(p + 1, launches[g][ia], launches[g][ib]));
      }
      // Where the sequential design would have stopped: the first n whose judgement is decided.
      Tally& tally = tallies[g];
      ++tally.trials;
      for (int n = 1; n <= schedule.max_pairs; ++n) {
        if (n < schedule.min_pairs) continue;
        const std::vector<ab::AbPair> prefix(pairs.begin(), pairs.begin() + n);
        const ab::AbComparison c = ab::judge_sequential(side, side_b, prefix, options, schedule);
        if (!c.decided && n < schedule.max_pairs) continue;
        tally.pairs.push_back(n);
        for (const ab::AbVerdictCount& vc : c.counts())
          tally.verdicts[ab::ab_verdict_name(vc.verdict)] += vc.count;
        if (c.exit_code == ExitCode::gate_failure) {
          ++tally.fails;
          // What failed, so a false alarm can be read (stderr: the table stays on stdout).
          for (const ab::AbKey& k : c.keys) {
            if (ab::ab_verdict_fails(k.verdict))
              std::fprintf(stderr, "ab_replay: %s trial %d: %s %s: %s\n", groups[g].first.c_str(),
                           t + 1, ab::ab_verdict_name(k.verdict), k.key.c_str(), k.reason.c_str());
          }
        }
        if (c.exit_code == ExitCode::infra_failure) ++tally.not_decided;
        break;
      }
      const std::vector<ab::AbPair> fixed(pairs.begin(), pairs.begin() + kFixedPairs);
      const ab::AbComparison f =
          ab::judge_sequential(side, side_b, fixed, options, {kFixedPairs, kFixedPairs});
      if (f.exit_code == ExitCode::gate_failure) ++tally.fixed_fails;
      if (f.exit_code == ExitCode::infra_failure) ++tally.fixed_not_decided;
    }
    std::printf(
        "sequential design: pairs %d..%d, family confidence %.0f%% (each look %.2f%%); "
        "fixed design: %d pairs at %.0f%%; seed %u\n",
        schedule.min_pairs, schedule.max_pairs, options.confidence * 100,
        ab::look_confidence(schedule, options.confidence) * 100, kFixedPairs,
        options.confidence * 100, seed);
    std::printf("%-28s %8s %6s %6s %9s %7s %6s %6s %10s %10s %6s\n", "group", "launches", "A/As",
                "FAIL", "FAIL<=95%", "undec.", "p50", "p90", "fixed FAIL", "fixed und.", "fixed");
    Tally total;
    std::size_t all_launches = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      print(groups[g].first, launches[g].size(), tallies[g], kFixedPairs);
      total.add(tallies[g]);
      all_launches += launches[g].size();
    }
    print("all", all_launches, total, kFixedPairs);
    std::printf("key verdicts where the sequential series stopped:");
    for (const auto& [v, n] : total.verdicts) std::printf(" %s %zu", v.c_str(), n);
    std::printf("\n");
    return 0;
  } catch (const InputError& e) {
    std::fprintf(stderr, "ab_replay: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ab_replay: %s\n", e.what());
    return 3;
  }
}
