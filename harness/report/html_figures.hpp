#pragma once
// The figures of the HTML report, built from a verdict::Comparison: per collective (or op), rate
// and time against message size with the baseline band and NCCL choice changes marked; the trend of
// each key over the last runs; heat maps of GPU-pair (P2P) keys. Each function returns one
// self-contained <svg> (svg_plot.hpp).
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/model/baseline.hpp"
#include "harness/report/history.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

// The band a key was judged with, on the metric it was judged on: the judgement's own limits
// (MetricJudgement::lower_limit / upper_limit), never a tolerance recomputed here. A metric the
// key was not judged on has no band. `low`/`high` are the limits in the metric's unit.
struct MetricBand {
  double centre = 0;
  double low = 0;
  double high = 0;
};

// The band drawn for `k` on metric `m`: its judgement's limits when it was judged on `m`.
std::optional<MetricBand> judged_band(const verdict::KeyComparison& k, verdict::Metric m);

// A key measured between two GPUs (".../src:0/dst:1/..."): drawn in the pair matrix, not as a
// curve.
bool is_pair_key(const std::string& key);

// Keys drawn in one figure: one (family, backend, op, rank count); each key shape is one series.
struct CurveGroup {
  std::string id;     // unique element id, e.g. "coll-nccl-all_reduce-2r"
  std::string title;  // "all_reduce (coll/nccl, 2 ranks)"
  std::vector<const verdict::KeyComparison*> keys;  // by series, then size
};

// Non-pair keys of the comparison, grouped; groups ordered by family, backend, op, ranks.
std::vector<CurveGroup> curve_groups(const verdict::Comparison& c);

// The series a key belongs to: the key without its "bytes:N" part.
std::string series_of(const std::string& key);

// Rate (busbw, else algbw) or time against size; log2 size axis, time on a log10 axis.
std::string size_plot_svg(const CurveGroup& group, bool rate);

// Each key's performance over the last `last` runs of `history` (oldest first) relative to its
// baseline median (or to its first run without a baseline): 1 = baseline, up = better.
// Empty string when no key of the group has two runs.
std::string trend_plot_svg(const CurveGroup& group, const std::vector<IndexedRun>& history,
                           std::size_t last);

// One heat map per pair-key shape (engine, direction, mode, size): rows source GPU, columns
// destination GPU, cells the measured rate (or time), failing keys outlined.
struct PairMatrix {
  std::string title;
  std::string svg;
  std::vector<std::string> notes;  // "0 -> 1: P07 note: ..." (the notes of the matrix's keys)
};
std::vector<PairMatrix> pair_matrices(const verdict::Comparison& c);

}  // namespace fabricgate::report
