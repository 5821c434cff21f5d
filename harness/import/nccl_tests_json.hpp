#pragma once
// The JSON nccl-tests writes with -J FILE (its format version 3): config (nthreads, ngpus, iters,
// validation, graph, devices), results (one object per size with out_of_place / in_place
// {time, alg_bw, bus_bw, nwrong}), out_of_bounds, average_bus_bandwidth (never used: P03) and
// end_time. A file cut off mid-run (the writer died) is not valid JSON or lacks the footer: an
// InputError naming the file and the line or field.
#include <string>
#include <string_view>

#include "harness/import/nccl_tests_output.hpp"

namespace fabricgate::import {

NcclTestsOutput parse_nccl_tests_json(std::string_view text, const std::string& file);

// True when the first non-blank character is '{' (nccl-tests' text output starts with '#').
bool looks_like_json(std::string_view text);

}  // namespace fabricgate::import
