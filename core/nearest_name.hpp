#pragma once
// One nearest-name rule for every place a name is matched against a fixed list (suite fields,
// CLI subcommands and option values, output formats): a near miss gets a suggestion such as
// "did you mean \"all_reduce\"?" instead of only the list.
//
// Nearness is the edit distance (insert, delete, substitute, swap two neighbours) between the
// names folded to lower case, with '-' and '_' counted alike, so "allreduce", "All-Reduce" and
// "all_reudce" all find "all_reduce". A candidate is offered only when it is close enough to be
// the name meant: at most 1 edit for names of up to 4 characters, 2 up to 8, 3 beyond.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fabricgate {

std::optional<std::string_view> nearest_name(std::string_view name,
                                             std::span<const std::string_view> candidates);
std::optional<std::string> nearest_name(std::string_view name,
                                        const std::vector<std::string>& candidates);

// " (did you mean \"x\"?)" for a near miss, "" otherwise: appended to an expectation.
std::string did_you_mean(std::string_view name, std::span<const std::string_view> candidates);
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

// "a, b or c": the valid names in their list order, for an expectation.
std::string names_text(std::span<const std::string_view> names);

}  // namespace fabricgate
