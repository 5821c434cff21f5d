#include "harness/report/key_figures.hpp"

#include "harness/verdict/units_text.hpp"

namespace fabricgate::report {

KeyFigures key_figures(const verdict::KeyComparison& k) {
  KeyFigures f;
  f.size = verdict::format_bytes(k.bytes);
  if (k.judgement) {
    const verdict::MetricJudgement& j = *k.judgement;
    const bool is_time = j.metric == verdict::Metric::time_us;
    f.metric = is_time ? "time" : (j.metric == verdict::Metric::busbw_GBps ? "busbw" : "algbw");
    f.baseline = verdict::format_metric(j.baseline_median, is_time);
    f.now = verdict::format_metric(j.current_median, is_time);
    f.change = verdict::format_percent(j.performance_ratio - 1);
    return f;
  }
  // Not judged (NEW, MISSING, route changes, ...): show the headline number that exists.
  if (k.busbw_now || k.busbw_baseline) {
    f.metric = "busbw";
    if (k.busbw_baseline) f.baseline = verdict::format_metric(*k.busbw_baseline, false);
    if (k.busbw_now) f.now = verdict::format_metric(*k.busbw_now, false);
  } else {
    f.metric = "time";
    if (k.time_us_baseline > 0) f.baseline = verdict::format_metric(k.time_us_baseline, true);
    if (k.time_us_now > 0) f.now = verdict::format_metric(k.time_us_now, true);
  }
  return f;
}

std::string describe_changes(const std::vector<verdict::Change>& changes) {
  std::string out;
  for (const verdict::Change& c : changes) {
    out += (out.empty() ? "" : "; ") + c.what + " " + c.before + " -> " + c.after;
  }
  return out;
}

std::vector<std::string> note_lines(const verdict::KeyComparison& k) {
  std::vector<std::string> out;
  for (const Note& n : k.notes) out.push_back(n.id + " " + n.level + ": " + n.text);
  return out;
}

}  // namespace fabricgate::report
