#pragma once
// The text table nccl-tests (2.13 and later) prints: the "# nccl-tests version" header, the
// nThread/nGpus line, one "#  Rank" line per GPU, the column header (out-of-place and in-place
// time/algbw/busbw/#wrong; "cputime" with -C 1; per-iteration columns with -P; a timestamp with
// -T) and one row per size, up to "# Collective test concluded". Anything missing, cut off or out
// of shape is an InputError naming the file and the line.
#include <string>
#include <string_view>

#include "harness/import/nccl_tests_output.hpp"

namespace fabricgate::import {

NcclTestsOutput parse_nccl_tests_text(std::string_view text, const std::string& file);

// "22803" -> "2.28.3" (NCCL_VERSION_CODE: major*10000 + minor*100 + patch since 2.9,
// major*1000 + minor*100 + patch before).
std::string nccl_version_from_code(long long code);

}  // namespace fabricgate::import
