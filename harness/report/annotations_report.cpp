// GitHub annotations (::error:: / ::warning::): the few most important findings, shown on the
// workflow run page. The comparison is already sorted by urgency.
#include "core/text_escape.hpp"
#include "harness/report/render.hpp"

#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::report {

std::string render_annotations(const verdict::Comparison& c, const RenderOptions& options) {
  std::string out;
  std::size_t emitted = 0;
  auto emit = [&](const char* level, const std::string& title, const std::string& message) {
    if (emitted >= options.max_annotations) return;
    ++emitted;
    out += std::string("::") + level + " title=" + annotation_property(title) +
           "::" + annotation_data(message) + "\n";
  };
  if (!c.run_complete) emit("error", "fabricgate: incomplete run", c.incomplete_reason);
  for (const verdict::ClusterFinding& f : c.cluster_findings) {
    if (f.fails_gate) emit("error", "fabricgate " + f.id, f.text);
  }
  for (const verdict::KeyComparison& k : c.keys) {
    if (verdict::verdict_fails_gate(k.verdict) && !k.missing_because_incomplete) {
      emit("error", std::string("fabricgate ") + verdict::verdict_name(k.verdict),
           k.key + ": " + k.reason);
    }
  }
  for (const verdict::VersionChange& v : c.version_changes) {
    emit("warning", "fabricgate: version changed", v.component + " " + v.before + " -> " + v.after);
  }
  for (const verdict::KeyComparison& k : c.keys) {
    if (verdict::facts_of(k.verdict).warns) {
      emit("warning", std::string("fabricgate ") + verdict::verdict_name(k.verdict),
           k.key + ": " + k.reason);
    }
  }
  if (!c.has_baseline)
    emit("warning", "fabricgate: no baseline", "create one: " + c.create_baseline_command);
  return out;
}

}  // namespace fabricgate::report
