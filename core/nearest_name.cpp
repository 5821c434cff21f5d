#include "core/nearest_name.hpp"

#include <algorithm>
#include <cctype>

namespace fabricgate {

namespace {

// Names are compared folded: case and the '-'/'_' spelling never make a near miss look far.
std::string fold(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    out.push_back(c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

// Optimal string alignment distance (Damerau-Levenshtein without repeated edits of a substring).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::size_t allowed_edits(std::size_t length) {
  if (length <= 4) return 1;
  if (length <= 8) return 2;
  return 3;
}

// Index of the nearest candidate within the allowance; the first of equals wins.
std::optional<std::size_t> nearest_index(std::string_view name,
                                         std::span<const std::string_view> candidates) {
  // Long inputs are not names anybody meant to type; they only cost time.
  if (name.empty() || name.size() > 64) return std::nullopt;
  const std::string folded = fold(name);
  std::optional<std::size_t> best;
  std::size_t best_distance = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (candidates[i] == name) continue;  // an exact match is no near miss
    const std::string c = fold(candidates[i]);
    const std::size_t limit = allowed_edits(std::max(c.size(), folded.size()));
    const std::size_t gap =
        c.size() > folded.size() ? c.size() - folded.size() : folded.size() - c.size();
    if (gap > limit) continue;
    const std::size_t distance = edit_distance(folded, c);
    if (distance <= limit && (!best || distance < best_distance)) {
      best = i;
      best_distance = distance;
    }
  }
  return best;
}

std::vector<std::string_view> views(const std::vector<std::string>& names) {
  return {names.begin(), names.end()};
}

}  // namespace

std::optional<std::string_view> nearest_name(std::string_view name,
                                             std::span<const std::string_view> candidates) {
  const auto i = nearest_index(name, candidates);
  if (!i) return std::nullopt;
  return candidates[*i];
}

std::optional<std::string> nearest_name(std::string_view name,
                                        const std::vector<std::string>& candidates) {
  const std::vector<std::string_view> v = views(candidates);
  const auto i = nearest_index(name, v);
  if (!i) return std::nullopt;
  return candidates[*i];
}

std::string did_you_mean(std::string_view name, std::span<const std::string_view> candidates) {
  const auto n = nearest_name(name, candidates);
  return n ? " (did you mean \"" + std::string(*n) + "\"?)" : std::string();
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  const std::vector<std::string_view> v = views(candidates);
  return did_you_mean(name, std::span<const std::string_view>(v));
}

std::string names_text(std::span<const std::string_view> names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

}  // namespace fabricgate
