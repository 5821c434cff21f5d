#pragma once
// The quiet console's summary of the keys it does not list one by one (passing, skipped, new):
// their notes grouped by pitfall and level ("P09 note on 104 keys"), their skips grouped by
// reason ("48 keys skipped: ..."), and how many passed. A suite of a hundred keys that all pass
// then fits on a screen; the Markdown report and --verbose still list every key.
#include <cstddef>
#include <string>
#include <vector>

#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

// Keys the quiet console summarises instead of listing: passes, skips and keys new to the baseline
// (they fail nothing; the summary says how to add them).
bool summarised_in_quiet_console(const verdict::KeyComparison& k);

struct NoteGroup {
  std::string id;     // "P09"
  std::string level;  // "note" | "warn" | "error"
  std::size_t keys = 0;
  std::string example;  // the first key's note text
};

struct SkipGroup {
  std::string reason;  // the key's reason, e.g. "skipped: MPI has no float16"
  std::size_t keys = 0;
  std::string first_key;
};

// In the order of first appearance, over the summarised keys only.
std::vector<NoteGroup> group_notes(const std::vector<verdict::KeyComparison>& keys);
std::vector<SkipGroup> group_skips(const std::vector<verdict::KeyComparison>& keys);

// The summary lines, each ending in "\n": passes counted, one line per skip reason, one line
// per note group (at most `max_lines` lines of each kind, then a count of the rest).
std::string quiet_summary(const std::vector<verdict::KeyComparison>& keys, std::size_t max_lines,
                          bool has_baseline = true);

// "docs/PITFALLS.md#p09" for a pitfall code "P09"; "" for anything else.
std::string pitfall_link(const std::string& id);

// "Pitfall codes: docs/PITFALLS.md#p04, #p09\n" for the codes the keys' notes cite, "" for none.
std::string pitfall_legend(const std::vector<verdict::KeyComparison>& keys);

// Markdown: the notes of passing and skipped keys, one group per pitfall and level, each with
// its keys in a collapsed list ("" when there are none). Failing keys carry theirs in their row.
std::string markdown_note_groups(const std::vector<verdict::KeyComparison>& keys);

}  // namespace fabricgate::report
