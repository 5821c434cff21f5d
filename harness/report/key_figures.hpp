#pragma once
// The few strings every renderer shows for a key: metric, baseline value, current value, change.
#include <string>
#include <vector>

#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

struct KeyFigures {
  std::string size;      // "1 MiB"
  std::string metric;    // "busbw" | "algbw" | "time" | "" when nothing was judged
  std::string baseline;  // with unit, "" when absent
  std::string now;
  std::string change;  // "+5.3%" (positive = better), "" when not judged
};

KeyFigures key_figures(const verdict::KeyComparison& k);

// "algo {Ring} -> {Tree}; network IB -> Socket"
std::string describe_changes(const std::vector<verdict::Change>& changes);

// "P09 warn: warm-up 12x slower ..." for each note.
std::vector<std::string> note_lines(const verdict::KeyComparison& k);

}  // namespace fabricgate::report
