#pragma once
// Where `--suite NAME` is found after --suites-dir and ./suites: the suites shipped with this
// binary, one rule for run, ab and calibrate.
#include <filesystem>

namespace fabricgate::cli {

// An installed fabricgate (<prefix>/bin/fabricgate) reads <prefix>/share/fabricgate/suites, found
// from the executable's own location so a relocated prefix works; a build-tree binary reads the
// source tree's suites/.
std::filesystem::path shipped_suites_dir();

// The roofline policies shipped the same way: <prefix>/share/fabricgate/policies when installed,
// the source tree's policies/ otherwise (docs/ROOFLINE.md).
std::filesystem::path shipped_policies_dir();

}  // namespace fabricgate::cli
