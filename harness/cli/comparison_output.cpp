#include "harness/cli/comparison_output.hpp"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "core/json_file.hpp"
#include "harness/gate/confirmation.hpp"

namespace fabricgate::cli {

gate::CompareOptions compare_options(bool force, bool force_platform) {
  gate::CompareOptions o;
  o.force = force;
  o.force_platform = force_platform;
  o.roofline_dirs = {"policies", std::filesystem::path(FABRICGATE_SOURCE_DIR) / "policies"};
  return o;
}

GatedRun gate_run_files(const std::string& run_path, const std::string& baseline_file,
                        const std::string& baselines_dir, const gate::CompareOptions& options) {
  GatedRun g{load_run(run_path), std::nullopt, {}};
  g.baseline = gate::find_baseline(g.run, baseline_file, baselines_dir);
  // A run made by `fabricgate run` may hold its confirmation launch in confirm/: the verdicts
  // are reproduced from both launches, as the run reported them.
  const std::filesystem::path confirm = g.run.directory.empty()
                                            ? std::filesystem::path()
                                            : std::filesystem::path(g.run.directory) / "confirm";
  std::error_code ec;
  if (!confirm.empty() && std::filesystem::exists(confirm / "run.json", ec)) {
    const RunRecord second = load_run(confirm);
    const auto launcher = [&](const std::vector<std::string>&) {
      return gate::ConfirmationLaunch{second, confirm.string()};
    };
    g.comparison = gate::compare_with_confirmation(g.run, g.baseline ? &*g.baseline : nullptr,
                                                   options, gate::ConfirmOptions{}, launcher);
  } else {
    g.comparison = gate::compare_run(g.run, g.baseline ? &*g.baseline : nullptr, options);
  }
  return g;
}

void emit(const gate::Comparison& comparison, report::ReportFormat format, const std::string& out,
          bool verbose) {
  report::RenderOptions options;
  options.verbose = verbose;
  options.color = out.empty() && format == report::ReportFormat::console &&
                  ::isatty(STDOUT_FILENO) == 1 && std::getenv("NO_COLOR") == nullptr;
  const std::string text = report::render(comparison, format, options);
  if (out.empty()) {
    std::cout << text << std::flush;
  } else {
    write_file_atomically(out, text);
  }
}

}  // namespace fabricgate::cli
