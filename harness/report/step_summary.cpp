#include "harness/report/step_summary.hpp"

#include <cstdlib>
#include <fstream>

#include "core/errors.hpp"
#include "harness/report/render.hpp"

namespace fabricgate::report {

std::string append_github_step_summary(const verdict::Comparison& c) {
  const char* path = std::getenv("GITHUB_STEP_SUMMARY");
  if (path == nullptr || *path == '\0') return {};
  const std::string text = render(c, ReportFormat::markdown, RenderOptions{});
  std::ofstream out(path, std::ios::app | std::ios::binary);
  out << text;
  out.flush();
  if (!out) throw InfraError(std::string("cannot append the job summary to ") + path);
  return path;
}

}  // namespace fabricgate::report
