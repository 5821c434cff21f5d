#pragma once
// Renderers turn a verdict::Comparison (plain data) into text; they compute nothing new. One small
// file per format: console, markdown (GitHub job summary), JUnit XML, GitHub annotations, JSON,
// HTML (html_report.hpp: with baseline bands and run history when the caller has them).
#include <cstddef>
#include <string>
#include <string_view>

#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

enum class ReportFormat { console, markdown, junit, annotations, json, html, ctrf };

// Throws InputError for an unknown name.
ReportFormat parse_report_format(std::string_view name);

struct RenderOptions {
  bool color = false;                  // ANSI colours: only when writing to a terminal
  std::size_t max_console_rows = 200;  // non-passing keys are always listed first
  // Console: false lists only keys that need a look and summarises passes, skips and their notes
  // (note_groups.hpp); true lists every key with its notes (--verbose).
  bool verbose = false;
  std::size_t max_annotations = 10;              // GitHub shows only a few per step
  std::size_t max_markdown_bytes = 1000 * 1024;  // job summaries are limited to 1 MiB
};

std::string render_console(const verdict::Comparison& c, const RenderOptions& options);
std::string render_markdown(const verdict::Comparison& c, const RenderOptions& options);
std::string render_junit(const verdict::Comparison& c);
// The Common Test Report Format (ctrf.io, spec 1.0.0): ctrf_report.cpp.
std::string render_ctrf(const verdict::Comparison& c);
std::string render_annotations(const verdict::Comparison& c, const RenderOptions& options);
std::string render_json(const verdict::Comparison& c);

std::string render(const verdict::Comparison& c, ReportFormat format, const RenderOptions& options);

}  // namespace fabricgate::report
