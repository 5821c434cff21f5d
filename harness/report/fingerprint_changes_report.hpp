#pragma once
// The "what changed" block of the compare and A/B reports: every fingerprint field that differs
// between the two sides (gate/fingerprint_changes.hpp), as console lines, a Markdown table and an
// HTML table. Text goes through the escaping module (text_escape.hpp) for each format; the
// console's list is cut so that a 1,024-node fingerprint cannot flood a CI log (JSON has it all).
#include <string>
#include <vector>

#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

struct FingerprintChangesView {
  const std::vector<verdict::Change>& changes;
  const std::string& note;             // why nothing was compared; "" when both sides were
  std::string before_label;            // "baseline", "A"
  std::string after_label;             // "this run", "B"
  std::string title = "What changed";  // Markdown/HTML heading
};

inline constexpr const char* kNoFingerprintDifference = "no fingerprint difference";

std::string fingerprint_changes_console(const FingerprintChangesView& v);
std::string fingerprint_changes_markdown(
    const FingerprintChangesView& v);  // "### What changed" section
std::string fingerprint_changes_html(
    const FingerprintChangesView& v);  // <section id="what-changed">

}  // namespace fabricgate::report
