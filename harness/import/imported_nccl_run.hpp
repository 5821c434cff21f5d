#pragma once
// nccl-tests launches -> one run.json. One file is one launch: each key gets one figure (the
// launch's time per operation, averaged by nccl-tests over its iterations), repetitions = 1.
// Refused (InputError, nothing written): one rank (P01: a collective of one GPU measures no
// fabric; `fabricgate run` refuses it the same way), two ranks on one GPU (P01), host-timed
// columns (-C 1), several threads per process (-t > 1), collectives or types fabricgate has no
// key for, and files whose rank counts or GPUs per process differ (one launch shape per run).
// -g g > 1 (one process driving g GPUs) is fabricgate's in-process mode: keys carry /gpp:g (P02).
#include <string>
#include <vector>

#include "harness/import/imported_run.hpp"
#include "harness/import/nccl_tests_output.hpp"

namespace fabricgate::import {

struct ImportResult {
  json run;
  std::vector<std::string> messages;  // what was ignored and why (printed on stderr)
};

ImportResult build_nccl_tests_run(const std::vector<NcclTestsOutput>& launches,
                                  const std::vector<SourceFile>& files, const ImportContext& ctx);

}  // namespace fabricgate::import
