#pragma once
// Escaping for each output format, kept apart so each rule is tested once. This is the one place
// where text from input files is made safe to show: error messages (errors.cpp), every renderer
// and the CLI's warnings go through these functions.
#include <cstddef>
#include <string>
#include <string_view>

namespace fabricgate::report {

// The most bytes of one input string shown in a message or report (a 10 MB key must not flood
// a CI log); the rest is cut and counted.
inline constexpr std::size_t kMaxShownBytes = 4096;

// One printable line: C0 control characters, DEL and the C1 controls (U+0080..U+009F, which some
// terminals obey like ESC) become visible escapes (\n, \t, \x1b, \u009b); text longer than
// max_bytes is cut at a character boundary and ends in "... (N more bytes)".
std::string printable(std::string_view text, std::size_t max_bytes = kMaxShownBytes);

// GitHub Actions runs any log line that starts (after blanks) with "::" as a workflow command;
// such lines get their first ':' written as "\x3a". Only the annotations renderer may emit
// workflow commands, and it builds them itself from escaped data.
std::string without_workflow_commands(std::string_view text);

// Text for a terminal or a CI log whose line breaks the renderer made itself: every line is
// printable() (ESC, CSI, OSC, CR and the C1 controls shown as escapes, nothing cut) and no line
// may start a workflow command. Every CLI output that is not a report goes through this one
// function: what a store row, a run file or an import holds cannot move the cursor, clear the
// screen, retitle the window or talk to the CI runner.
std::string console_text(std::string_view text);

// XML 1.0 text and attribute values: & < > " ' escaped; control characters XML forbids dropped.
std::string xml_escape(std::string_view text);

// GitHub workflow commands: message data escapes % CR LF; property values also : and ,.
std::string annotation_data(std::string_view text);
std::string annotation_property(std::string_view text);

// GitHub-flavoured Markdown (PR comments, the job summary, report.md): text from a run, a store
// or an import shown as literal text, never as markup. One line (newlines become spaces, other
// controls escaped as in printable()); the characters Markdown or HTML give a meaning anywhere
// (\ ` * _ [ ] < > # | ! ~ &) backslash-escaped, and those that matter only where they start
// something (- + = or "1." at the start: a list or heading; ':' before "//" and '.' after "www":
// an autolink), so no heading, emphasis, link, image, table column, HTML tag (<img>, <details>)
// or entity can start; and a zero-width space (U+200B) after every '@' and after a '#' that
// precedes a digit, so that no @mention, e-mail autolink or issue reference is made (backslashes
// do not stop GitHub's mention filter, nor cmark-gfm's e-mail autolinks).
std::string markdown_text(std::string_view text);
// The same rule; the name the table writers use.
inline std::string markdown_cell(std::string_view text) { return markdown_text(text); }

// A Markdown code span holding `text` literally (keys, versions): fenced by a backtick run longer
// than any inside, padded when the text starts or ends with a backtick, one line, pipes escaped
// (GitHub tables honour "\|" inside code spans). Mentions and HTML are inert inside code.
std::string markdown_code(std::string_view text);

// Slack mrkdwn (webhook text): & < > as entities (so no <!channel>, <@U…>, <url|label> can be
// written by data), a zero-width space after '@' (no @channel/@here) and before the formatting
// characters * _ ~ ` (no bold, italics, strike or code made by data); one line.
std::string slack_text(std::string_view text);
// A Slack code span: & < > as entities, '@' followed by U+200B, backticks as U+02CB (Slack has
// no escape for them); Slack formats nothing else inside a span.
std::string slack_code(std::string_view text);

}  // namespace fabricgate::report
