#include "core/text_escape.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace fabricgate::report {

namespace {

const char kHex[] = "0123456789abcdef";

std::string hex_escape(unsigned char c) {
  return std::string("\\x") + kHex[c >> 4] + kHex[c & 0xf];
}

// Bytes of the well-formed UTF-8 sequence at text[i] (lead byte plus continuation bytes), or 0
// for a byte that starts none (stray continuation, bad lead, cut sequence). A sequence is never
// taken on trust from its lead byte alone: "\xed\n" must not swallow the newline.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  if (lead < 0x80) return 1;
  const std::size_t n = lead >= 0xc2 && lead < 0xe0   ? 2
                        : lead >= 0xe0 && lead < 0xf0 ? 3
                        : lead >= 0xf0 && lead < 0xf5 ? 4
                                                      : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return 0;
  }
  return n;
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size(), max_bytes) + 16);
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t seq = sequence_length(text, i);
    const std::size_t n = seq == 0 ? 1 : seq;
    if (i + n > max_bytes) break;
    if (seq == 0) {
      out += hex_escape(c);  // not UTF-8: shown, never passed to the terminal
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += hex_escape(c);
    } else if (c == 0xc2 && n == 2 && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) < 0xa0) {
      out += "\\u00" + hex_escape(static_cast<unsigned char>(text[i + 1])).substr(2);
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  if (i < text.size()) out += "... (" + std::to_string(text.size() - i) + " more bytes)";
  return out;
}

std::string console_text(std::string_view text) {
  std::string lines;
  lines.reserve(text.size());
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    lines += printable(text.substr(start, end - start), std::string_view::npos);
    if (end == text.size()) break;
    lines += '\n';
    start = end + 1;
  }
  return without_workflow_commands(lines);
}

std::string without_workflow_commands(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool line_start = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (line_start && c == ':' && i + 1 < text.size() && text[i + 1] == ':') {
      out += "\\x3a";
      line_start = false;
      continue;
    }
    out += c;
    if (c == '\n' || c == '\r') {
      line_start = true;
    } else if (c != ' ' && c != '\t') {
      line_start = false;
    }
  }
  return out;
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') break;
        out += c;
    }
  }
  return out;
}

std::string annotation_data(std::string_view text) {
  // GitHub's own escapes for % CR LF (a message may span lines); other controls as in printable().
  std::string out;
  std::size_t start = 0;
  const auto flush = [&](std::size_t end) {
    out += printable(text.substr(start, end - start), SIZE_MAX);
  };
  const std::size_t shown = std::min(text.size(), kMaxShownBytes);
  for (std::size_t i = 0; i < shown; ++i) {
    const char c = text[i];
    if (c != '%' && c != '\r' && c != '\n') continue;
    flush(i);
    out += c == '%' ? "%25" : c == '\r' ? "%0D" : "%0A";
    start = i + 1;
  }
  flush(shown);
  if (shown < text.size()) out += "... (" + std::to_string(text.size() - shown) + " more bytes)";
  return out;
}

std::string annotation_property(std::string_view text) {
  std::string out;
  for (const char c : annotation_data(text)) {
    if (c == ':')
      out += "%3A";
    else if (c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

namespace {

constexpr std::string_view kZeroWidthSpace = "\u200b";

// One line, controls shown as escapes (cut where the data entered the report, not here).
std::string one_printable_line(std::string_view text) {
  std::string spaced(text);
  std::replace(spaced.begin(), spaced.end(), '\n', ' ');
  std::replace(spaced.begin(), spaced.end(), '\r', ' ');
  return printable(spaced, SIZE_MAX);
}

}  // namespace

std::string markdown_text(std::string_view text) {
  // Markup anywhere in a line; the rest (list markers, setext underlines, autolinks) only where
  // it would start one, so that ordinary text such as versions stays readable in the source.
  static constexpr std::string_view kMarkup = "\\`*_[]<>#|!~&";
  const std::string line = one_printable_line(text);
  const auto lower_at = [&](std::size_t i) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(line[i])));
  };
  std::size_t leading_digits = 0;
  while (leading_digits < line.size() &&
         std::isdigit(static_cast<unsigned char>(line[leading_digits])))
    ++leading_digits;
  std::string out;
  out.reserve(line.size() + 8);
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    const bool starts_block = (i == 0 && (c == '-' || c == '+' || c == '=')) ||
                              (i == leading_digits && i > 0 && (c == '.' || c == ')'));
    const bool autolink = (c == ':' && line.compare(i + 1, 2, "//") == 0) ||
                          (c == '.' && i >= 3 && lower_at(i - 3) == 'w' && lower_at(i - 2) == 'w' &&
                           lower_at(i - 1) == 'w');
    if (c == '#' && i + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 1]))) {
      out += "\\#";
      out += kZeroWidthSpace;  // no issue reference (#123)
      continue;
    }
    if (kMarkup.find(c) != std::string_view::npos || starts_block || autolink) out += '\\';
    out += c;
    if (c == '@') out += kZeroWidthSpace;  // no @mention, no e-mail autolink
  }
  return out;
}

std::string markdown_code(std::string_view text) {
  std::string body;
  for (const char c : one_printable_line(text)) {
    if (c == '|')
      body += "\\|";
    else
      body += c;
  }
  std::size_t longest = 0;
  for (std::size_t i = 0; i < body.size();) {
    std::size_t run = 0;
    while (i + run < body.size() && body[i + run] == '`') ++run;
    longest = std::max(longest, run);
    i += run == 0 ? 1 : run;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

namespace {

// Slack's three entities (& < >), which both Slack writers need; false for any other character.
bool append_slack_entity(char c, std::string& out) {
  switch (c) {
    case '&': out += "&amp;"; return true;
    case '<': out += "&lt;"; return true;
    case '>': out += "&gt;"; return true;
    default: return false;
  }
}

}  // namespace

std::string slack_text(std::string_view text) {
  std::string out;
  for (const char c : one_printable_line(text)) {
    if (append_slack_entity(c, out)) continue;
    switch (c) {
      case '*':
      case '_':
      case '~':
      case '`':
        out += kZeroWidthSpace;
        out += c;
        break;
      case '@':
        out += c;
        out += kZeroWidthSpace;
        break;
      default: out += c;
    }
  }
  return out;
}

std::string slack_code(std::string_view text) {
  // Slack formats nothing inside a code span, but a client may still notify on "@channel":
  // '@' gets the zero-width space, backticks become U+02CB so the span cannot be closed early.
  std::string out;
  for (const char c : one_printable_line(text)) {
    if (append_slack_entity(c, out)) continue;
    switch (c) {
      case '`': out += "\u02cb"; break;
      case '@':
        out += c;
        out += kZeroWidthSpace;
        break;
      default: out += c;
    }
  }
  return "`" + out + "`";
}

}  // namespace fabricgate::report
