#pragma once
// Reading other tools' output files: the whole file, split into lines, and numbers parsed strictly,
// with errors that name the file and the line ("FILE: line 12: ...") and quote the offending text
// without raw control characters (a binary or corrupt file must not scramble the terminal).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabricgate::import {

// The file's bytes; InputError when it is missing, unreadable, empty or over 256 MiB.
std::string read_source_file(const std::filesystem::path& path);

// Lines without their "\n" (and a trailing "\r"); a last line without "\n" is kept.
std::vector<std::string_view> split_lines(std::string_view text);

// Whitespace-separated words of a line.
std::vector<std::string_view> split_words(std::string_view line);

// `text` with control characters and non-ASCII bytes shown as '?', cut to `max` characters.
std::string printable(std::string_view text, std::size_t max = 120);

// Whole-word numbers: nullopt unless the entire word is the number (no "12abc").
std::optional<double> parse_double(std::string_view word);
std::optional<long long> parse_integer(std::string_view word);

// InputError "FILE: line N: expectation".
[[noreturn]] void fail_at_line(const std::string& file, int line, const std::string& expectation);

}  // namespace fabricgate::import
