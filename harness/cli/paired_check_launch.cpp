#include "harness/cli/paired_check_launch.hpp"

#include <iostream>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/ab/ab_compare.hpp"
#include "harness/launch/ab_runner.hpp"
#include "harness/launch/ab_spec.hpp"
#include "harness/launch/confirmation_launch.hpp"
#include "harness/launch/suite_env_policy.hpp"

namespace fabricgate::cli {

namespace {

struct Sides {
  std::vector<std::string> a;
  std::vector<std::string> b;
  std::string not_reproducible;  // a software change no side item can switch
  std::string launcher_value;    // a launcher/loader variable side A would have to set
};

// The baseline's fabric settings as side A, this run's as side B (gate::paired_check_sides, the
// items the RUNNER-DIFFERS reason prints for a recorded run).
Sides sides_of(const verdict::Comparison& c) {
  gate::PairedCheckSides items = gate::paired_check_sides(c.fingerprint_changes);
  Sides s{std::move(items.a), std::move(items.b), "", ""};
  // Side A's values come from the baseline file, which a pull request may change: like
  // `ab --sides-from-file`, it may unset a launcher or loader variable (OMPI_MCA_*, LD_*, ...)
  // but not set one (docs/THREAT-MODEL.md).
  for (const auto& [name, value] : items.a_sets) {
    if (launch::is_launcher_env(name)) {
      s.launcher_value = name + "=" + value;
      break;
    }
  }
  if (s.a.size() < c.software_changes.size()) {
    for (const std::string& change : c.software_changes) {
      if (!change.starts_with("env/")) {
        s.not_reproducible = change;
        break;
      }
    }
    if (s.not_reproducible.empty()) s.not_reproducible = c.software_changes.front();
  }
  return s;
}

std::string joined(const std::vector<std::string>& items) {
  std::string t;
  for (const std::string& i : items) t += (t.empty() ? "" : " ") + i;
  return t;
}

}  // namespace

gate::PairedCheckProvider paired_check_launcher(const launch::RunOptions& base,
                                                const std::filesystem::path& run_dir,
                                                const std::optional<Baseline>& baseline,
                                                PairedCheckLimits limits) {
  return [base, run_dir, baseline, limits](
             verdict::Comparison& c, const RunRecord& run) -> std::optional<gate::PairedCheck> {
    if (c.software_changes.empty()) return std::nullopt;  // the runner differs, not the setup
    const Sides sides = sides_of(c);
    if (!sides.not_reproducible.empty()) {
      c.paired_check_skipped =
          "no paired check: " + report::printable(sides.not_reproducible, 200) +
          " cannot be switched inside this job";
      return std::nullopt;
    }
    if (!sides.launcher_value.empty()) {
      c.paired_check_skipped =
          "no paired check: side A would set " + report::printable(sides.launcher_value, 200) +
          " from the baseline file, a launcher or loader variable (run the check by hand: the "
          "RUNNER-DIFFERS reason gives the command)";
      return std::nullopt;
    }
    if (run.host_cpu_pressure && c.busy_threshold > 0 &&
        *run.host_cpu_pressure > c.busy_threshold) {
      c.paired_check_skipped = "no paired check: the runner was busy";
      return std::nullopt;
    }
    std::vector<std::string> keys;
    for (const verdict::KeyComparison& k : c.keys) {
      if (verdict::verdict_change_unjudged(k.verdict)) keys.push_back(k.key);
    }
    launch::AbRunOptions o;
    o.run = base;
    o.run.scenarios = {run.scenario.empty() ? std::string("default") : run.scenario};
    o.run.extra_bench_args = {"--benchmark_filter=" + launch::benchmark_filter_for(keys)};
    o.run.caller_holds_lock = true;
    o.run.run_dir.clear();
    o.run.run_id.clear();
    o.series_dir = run_dir / "paired";
    o.schedule = {limits.min_pairs, limits.max_pairs};
    if (baseline && !baseline->source.empty()) o.policy_baseline = baseline->source;
    std::vector<std::string> a_items = sides.a;
    std::vector<std::string> b_items = sides.b;
    a_items.push_back("label=baseline-settings");
    b_items.push_back("label=this-run");
    try {
      o.a = launch::parse_ab_side("a", a_items);
      o.b = launch::parse_ab_side("b", b_items);
    } catch (const InputError& e) {
      c.paired_check_skipped =
          std::string("no paired check: a setting cannot be given to a side: ") + e.what();
      return std::nullopt;
    }
    std::cerr << "fabricgate: the setup differs from the baseline's ("
              << report::printable(c.software_changes.front(), 200)
              << (c.software_changes.size() > 1 ? ", ..." : "") << ") and " << keys.size()
              << " key(s) sit outside the fleet on a runner without a level of its own: paired "
                 "check on this runner, A "
              << report::printable(joined(sides.a), 400) << ", B "
              << report::printable(joined(sides.b), 400) << ", " << limits.min_pairs << ".."
              << limits.max_pairs << " pairs -> " << o.series_dir.string() << "\n";
    gate::PairedCheck p;
    try {
      const launch::AbRunResult r = launch::run_ab(o);
      p.directory = r.dir.string();
      p.pairs = static_cast<int>(r.comparison.pairs_compared.size());
      p.stop_reason =
          r.comparison.complete ? r.comparison.stop_reason : r.comparison.incomplete_reason;
      for (const ab::AbKey& k : r.comparison.keys) {
        p.keys[k.key] = {ab::ab_verdict_name(k.verdict), k.performance.low, k.performance.high,
                         k.tolerance, k.pairs_needed};
      }
      std::cerr << "fabricgate: paired check: " << r.comparison.headline() << "\n";
    } catch (const std::exception& e) {
      c.paired_check_skipped =
          std::string("the paired check stopped: ") + report::printable(e.what(), 400);
      return std::nullopt;
    }
    p.a_items = sides.a;
    p.b_items = sides.b;
    write_json_atomically(run_dir / gate::kPairedCheckFile, gate::paired_check_to_json(p));
    return p;
  };
}

gate::PairedCheckProvider recorded_paired_check(const std::filesystem::path& run_path) {
  std::filesystem::path dir =
      std::filesystem::is_directory(run_path) ? run_path : run_path.parent_path();
  if (dir.empty()) dir = ".";
  return [dir](verdict::Comparison&, const RunRecord&) -> std::optional<gate::PairedCheck> {
    return gate::load_paired_check(dir);
  };
}

}  // namespace fabricgate::cli
