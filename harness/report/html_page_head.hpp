#pragma once
// The start of every HTML page fabricgate writes (the report, the dashboard's pages), in one place
// so that the pages cannot drift apart on what matters most: no network, ever. The
// Content-Security-Policy makes the browser refuse any fetch and any script a page might still
// contain; styles are inline and images only data: URIs.
#include <string>

namespace fabricgate::report {

// "<!DOCTYPE html>" through "<body>\n": charset, the policy, the viewport, the shared stylesheet
// followed by `page_styles` (the page's own rules, each line ending in "\n"), and `title`
// (escaped here).
std::string html_page_start(const std::string& title, const std::string& page_styles);

}  // namespace fabricgate::report
