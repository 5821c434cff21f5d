#include "harness/report/key_figures.hpp"

#include "harness/verdict/units_text.hpp"

namespace fabricgate::report {

KeyFigures key_figures(const gate::KeyComparison& k) {
  KeyFigures f;
  f.size = gate::format_bytes(k.bytes);
  if (k.judgement) {
    const gate::MetricJudgement& j = *k.judgement;
    const bool is_time = j.metric == gate::Metric::time_us;
    f.metric = is_time ? "time" : (j.metric == gate::Metric::busbw_GBps ? "busbw" : "algbw");
    f.baseline = gate::format_metric(j.baseline_median, is_time);
    f.now = gate::format_metric(j.current_median, is_time);
    f.change = gate::format_percent(j.performance_ratio - 1);
    return f;
  }
  // Not judged (NEW, MISSING, route changes, ...): show the headline number that exists.
  if (k.busbw_now || k.busbw_baseline) {
    f.metric = "busbw";
    if (k.busbw_baseline) f.baseline = gate::format_metric(*k.busbw_baseline, false);
    if (k.busbw_now) f.now = gate::format_metric(*k.busbw_now, false);
  } else {
    f.metric = "time";
    if (k.time_us_baseline > 0) f.baseline = gate::format_metric(k.time_us_baseline, true);
    if (k.time_us_now > 0) f.now = gate::format_metric(k.time_us_now, true);
  }
  return f;
}

std::string describe_changes(const std::vector<gate::Change>& changes) {
  std::string out;
  for (const gate::Change& c : changes) {
    out += (out.empty() ? "" : "; ") + c.what + " " + c.before + " -> " + c.after;
  }
  return out;
}

std::vector<std::string> note_lines(const gate::KeyComparison& k) {
  std::vector<std::string> out;
  for (const Note& n : k.notes) out.push_back(n.id + " " + n.level + ": " + n.text);
  return out;
}

}  // namespace fabricgate::report
