#include "harness/report/note_groups.hpp"

#include <algorithm>

#include "core/text_escape.hpp"

#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::report {

namespace {

// Console text from run files: control characters (terminal escapes, carriage returns) would
// rewrite the log, so they are shown as '?'; long texts are cut, the report has them whole.
std::string one_line(const std::string& text, std::size_t max_chars = 110) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  if (out.size() > max_chars) {
    std::size_t cut = max_chars;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80)
      --cut;  // whole UTF-8 characters
    out = out.substr(0, cut) + "...";
  }
  return out;
}

std::string keys_text(std::size_t n) { return std::to_string(n) + (n == 1 ? " key" : " keys"); }

}  // namespace

bool summarised_in_quiet_console(const verdict::KeyComparison& k) {
  // Keys that neither fail nor warn (PASS, IMPROVEMENT is listed, NEW, NOISY, SKIPPED) get one
  // summary line per verdict, not a row each, or they bury the keys that need a look; the
  // summary names NOISY and NEW as not gated.
  const verdict::VerdictFacts& f = verdict::facts_of(k.verdict);
  return !f.fails && !f.warns && k.verdict != verdict::Verdict::improvement;
}

std::vector<NoteGroup> group_notes(const std::vector<verdict::KeyComparison>& keys) {
  std::vector<NoteGroup> groups;
  for (const verdict::KeyComparison& k : keys) {
    if (!summarised_in_quiet_console(k)) continue;
    std::vector<std::size_t> counted;  // a key with two P09 notes counts once
    for (const Note& n : k.notes) {
      auto it = std::find_if(groups.begin(), groups.end(), [&](const NoteGroup& g) {
        return g.id == n.id && g.level == n.level;
      });
      if (it == groups.end()) {
        groups.push_back({n.id, n.level, 0, n.text});
        it = groups.end() - 1;
      }
      const auto index = static_cast<std::size_t>(it - groups.begin());
      if (std::find(counted.begin(), counted.end(), index) != counted.end()) continue;
      counted.push_back(index);
      ++it->keys;
    }
  }
  return groups;
}

std::vector<SkipGroup> group_skips(const std::vector<verdict::KeyComparison>& keys) {
  std::vector<SkipGroup> groups;
  for (const verdict::KeyComparison& k : keys) {
    if (k.verdict != verdict::Verdict::skipped) continue;
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const SkipGroup& g) { return g.reason == k.reason; });
    if (it == groups.end()) {
      groups.push_back({k.reason, 1, k.key});
    } else {
      ++it->keys;
    }
  }
  return groups;
}

std::string quiet_summary(const std::vector<verdict::KeyComparison>& keys, std::size_t max_lines,
                          bool has_baseline) {
  const auto passes = static_cast<std::size_t>(std::count_if(
      keys.begin(), keys.end(),
      [](const verdict::KeyComparison& k) { return k.verdict == verdict::Verdict::pass; }));
  std::string out;
  if (passes > 0) out += "PASS on " + keys_text(passes) + " (report.md and --verbose list each)\n";
  const auto first_noisy = std::find_if(
      keys.begin(), keys.end(),
      [](const verdict::KeyComparison& k) { return k.verdict == verdict::Verdict::noisy; });
  if (first_noisy != keys.end()) {
    const auto noisy = static_cast<std::size_t>(std::count_if(
        keys.begin(), keys.end(),
        [](const verdict::KeyComparison& k) { return k.verdict == verdict::Verdict::noisy; }));
    out += "NOISY " + keys_text(noisy) +
           ": launch-to-launch noise wider than the policy's max_band, " +
           "informational, not gated (e.g. " + one_line(first_noisy->key, 72) +
           "; report.md and --verbose list each with its measured noise)\n";
  }
  const auto first_new = std::find_if(
      keys.begin(), keys.end(),
      [](const verdict::KeyComparison& k) { return k.verdict == verdict::Verdict::new_key; });
  if (first_new != keys.end()) {
    const auto news = static_cast<std::size_t>(std::count_if(
        keys.begin(), keys.end(),
        [](const verdict::KeyComparison& k) { return k.verdict == verdict::Verdict::new_key; }));
    // Without a baseline there is nothing to update: `baseline create` (the command printed
    // above) is the way in.
    out += has_baseline
               ? "NEW " + keys_text(news) + " not in the baseline (e.g. " +
                     one_line(first_new->key, 72) + "): `fabricgate baseline update` adds them\n"
               : "NEW " + keys_text(news) + " not gated, there is no baseline (e.g. " +
                     one_line(first_new->key, 72) + "): `fabricgate baseline create` makes one\n";
  }

  const std::vector<SkipGroup> skips = group_skips(keys);
  for (std::size_t i = 0; i < skips.size() && i < max_lines; ++i) {
    const SkipGroup& g = skips[i];
    const std::string why = g.reason.rfind("skipped: ", 0) == 0 ? g.reason.substr(9) : g.reason;
    out += "SKIPPED " + keys_text(g.keys) + " (e.g. " + one_line(g.first_key, 72) +
           "): " + one_line(why) + "\n";
  }
  if (skips.size() > max_lines)
    out += "(" + std::to_string(skips.size() - max_lines) +
           " more skip reasons; report.md lists them)\n";

  const std::vector<NoteGroup> notes = group_notes(keys);
  for (std::size_t i = 0; i < notes.size() && i < max_lines; ++i) {
    const NoteGroup& g = notes[i];
    out += g.id + " " + g.level + " on " + keys_text(g.keys) + " - report.md lists them; e.g. " +
           one_line(g.example) + "\n";
  }
  if (notes.size() > max_lines)
    out += "(" + std::to_string(notes.size() - max_lines) +
           " more note groups; report.md lists them)\n";
  return out;
}

std::string pitfall_link(const std::string& id) {
  const bool code = id.size() == 3 && id[0] == 'P' && id[1] >= '0' && id[1] <= '9' &&
                    id[2] >= '0' && id[2] <= '9';
  return code ? "docs/PITFALLS.md#p" + id.substr(1) : "";
}

std::string pitfall_legend(const std::vector<verdict::KeyComparison>& keys) {
  std::vector<std::string> ids;
  for (const verdict::KeyComparison& k : keys) {
    for (const Note& n : k.notes) {
      if (!pitfall_link(n.id).empty() && std::find(ids.begin(), ids.end(), n.id) == ids.end())
        ids.push_back(n.id);
    }
  }
  if (ids.empty()) return "";
  std::sort(ids.begin(), ids.end());
  std::string out = "Pitfall codes: " + pitfall_link(ids.front());
  for (std::size_t i = 1; i < ids.size(); ++i) out += ", #p" + ids[i].substr(1);
  return out + "\n";
}

std::string markdown_note_groups(const std::vector<verdict::KeyComparison>& keys) {
  const std::vector<NoteGroup> groups = group_notes(keys);
  if (groups.empty()) return "";
  std::string out = "### Notes on passing and skipped keys\n\n";
  for (const NoteGroup& g : groups) {
    const std::string link = pitfall_link(g.id);
    out += "- **" + g.id + " " + g.level + "** on " + keys_text(g.keys) +
           (link.empty() ? "" : " (`" + link + "`)") + "\n  <details><summary>keys</summary>\n\n";
    for (const verdict::KeyComparison& k : keys) {
      if (!summarised_in_quiet_console(k)) continue;
      for (const Note& n : k.notes) {
        if (n.id != g.id || n.level != g.level) continue;
        out += "  - " + markdown_code(one_line(k.key, 200)) + ": " +
               markdown_cell(one_line(n.text, 300)) + "\n";
      }
    }
    out += "\n  </details>\n";
  }
  return out + "\n";
}

}  // namespace fabricgate::report
