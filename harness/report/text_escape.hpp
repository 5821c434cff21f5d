#pragma once
// Escaping for each output format, kept apart so each rule is tested once.
#include <string>
#include <string_view>

namespace fabricgate::report {

// XML 1.0 text and attribute values: & < > " ' escaped; control characters XML forbids dropped.
std::string xml_escape(std::string_view text);

// GitHub workflow commands: message data escapes % CR LF; property values also : and ,.
std::string annotation_data(std::string_view text);
std::string annotation_property(std::string_view text);

// A Markdown table cell: pipes escaped, newlines turned into spaces.
std::string markdown_cell(std::string_view text);

}  // namespace fabricgate::report
