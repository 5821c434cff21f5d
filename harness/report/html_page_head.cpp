#include "harness/report/html_page_head.hpp"

#include "core/text_escape.hpp"

namespace fabricgate::report {

namespace {

constexpr const char* kMeta = R"(<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
)";

// Rules every page uses; a page's own rules come after them and may refine them.
constexpr const char* kSharedStyles =
    R"(body{font-family:sans-serif;margin:24px;color:#222;max-width:1400px}
h1{font-size:22px;margin:0 0 6px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:12px;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top}
th{background:#f4f4f4}td.num{text-align:right;white-space:nowrap}
code{background:#f4f4f4;padding:0 3px}footer{margin-top:32px;font-size:11px;color:#666}
)";

}  // namespace

std::string html_page_start(const std::string& title, const std::string& page_styles) {
  return std::string("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n") + kMeta + "<style>\n" +
         kSharedStyles + page_styles + "</style>\n<title>" + xml_escape(title) +
         "</title>\n</head>\n<body>\n";
}

}  // namespace fabricgate::report
