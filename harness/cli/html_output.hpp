#pragma once
// What `report --format html` and `run --report html` share: the HTML report with the baseline's
// bands and the trend of the platform's last runs, written to stdout or atomically to a file.
#include <cstddef>
#include <string>

#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::cli {

struct HtmlHistoryOptions {
  bool enabled = true;
  std::string dir;  // results root or <root>/<platform>; "" = the directory the run lies in
  std::size_t last = 10;
};

// History warnings (corrupt or foreign run files) go to stderr. Throws InputError when an explicit
// history directory does not exist.
void write_html_report(const RunRecord& run, const verdict::Comparison& comparison,
                       const HtmlHistoryOptions& history, const std::string& out);

}  // namespace fabricgate::cli
