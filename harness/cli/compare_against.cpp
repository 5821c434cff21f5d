#include "harness/cli/compare_against.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/ab/ab_compare.hpp"
#include "harness/ab/ab_json.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/model/output_paths.hpp"
#include "harness/model/run_record.hpp"
#include "harness/report/ab_report.hpp"

namespace fabricgate::cli {

namespace fs = std::filesystem;

namespace {

std::vector<RunRecord> load_side(const std::vector<std::string>& runs) {
  std::vector<RunRecord> out;
  for (const std::string& r : runs) out.push_back(load_run(r));
  return out;
}

ab::AbSide side(const char* id, const char* label, const std::vector<RunRecord>& runs) {
  ab::AbSide s;
  s.id = id;
  s.label = label;
  for (const RunRecord& r : runs) s.items.push_back("run=" + r.run_id);
  return s;
}

// Every run must be of the first run's platform: another platform's keys measure other hardware.
void require_one_platform(const std::vector<RunRecord>& runs, const std::string& platform,
                          bool force) {
  if (force) return;
  for (const RunRecord& r : runs) {
    if (r.platform != platform) {
      throw InputError(r.directory, "platform",
                       "a run of platform " + platform + " like the others (it is " + r.platform +
                           "); --force-platform compares them anyway");
    }
  }
}

}  // namespace

int run_compare_against(const CompareAgainstArgs& a) {
  if (a.format != "console" && a.format != "markdown" && a.format != "json")
    throw InputError("--format " + a.format +
                     ": compare --against writes console, markdown or json");
  if (!a.out.empty()) require_writable_file(a.out, "--out");
  if (a.newer.size() != a.older.size()) {
    throw InputError("--against: as many runs as before it (" + std::to_string(a.newer.size()) +
                     " new, " + std::to_string(a.older.size()) +
                     " to compare with): they are paired in the order given");
  }
  const std::vector<RunRecord> newer = load_side(a.newer);
  const std::vector<RunRecord> older = load_side(a.older);
  const std::string platform = older.front().platform;
  require_one_platform(older, platform, a.force_platform);
  require_one_platform(newer, platform, a.force_platform);

  ab::AbOptions options;
  const fs::path policy_file =
      choose_baseline(a.baseline, a.baselines_dir,
                      {platform, older.front().suite, older.front().scenario})
          .path;
  std::error_code ec;
  if (!a.baseline.empty() || fs::exists(policy_file, ec)) {
    options.policy = load_baseline(policy_file).policy;
    options.tolerance_source = "tolerance policy of " + policy_file.string();
  }
  options.pairs_requested = static_cast<int>(older.size());
  std::vector<ab::AbPair> pairs;
  for (std::size_t i = 0; i < older.size(); ++i) {
    ab::AbPair p;
    p.index = static_cast<int>(i + 1);
    p.a.run = older[i];
    p.b.run = newer[i];
    pairs.push_back(std::move(p));
  }
  ab::AbComparison c =
      ab::compare_ab(side("a", "OLD", older), side("b", "NEW", newer), pairs, options);
  c.command = "compare --against";
  c.run_id = newer.front().run_id + " against " + older.front().run_id;
  // The sides are runs, not settings: "the same configuration" is not known here, and one pair
  // is the common mistake, said with what to do.
  std::erase_if(c.warnings, [](const std::string& w) {
    return w.starts_with("A and B are the same configuration") || w.starts_with("only ");
  });
  if (pairs.size() < 3) {
    c.warnings.push_back(
        std::to_string(pairs.size()) + " run(s) a side: launch-to-launch drift is " +
        (pairs.size() < 2 ? "not measured, so no key can be decided" : "poorly sampled") +
        "; give three or more runs a side (compare NEW1 NEW2 NEW3 --against OLD1 OLD2 OLD3)");
  }
  c.platform = platform;
  c.suite = older.front().suite;
  const std::string text = a.format == "json" ? ab::ab_to_json(c).dump(2) + "\n"
                           : a.format == "markdown"
                               ? report::without_workflow_commands(report::render_ab_markdown(c))
                               : report::without_workflow_commands(report::render_ab_console(
                                     c, a.out.empty() && ::isatty(STDOUT_FILENO) == 1 &&
                                            std::getenv("NO_COLOR") == nullptr));
  if (a.out.empty()) {
    std::cout << text << std::flush;
  } else {
    write_file_atomically(a.out, text);
  }
  return static_cast<int>(ab::ab_exit_code(c));
}

}  // namespace fabricgate::cli
