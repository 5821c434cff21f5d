#pragma once
// `fabricgate run`'s paired check (harness/gate/paired_check.hpp): when the change question set
// keys aside as RUNNER-DIFFERS, the setup differs from the baseline's only in fabric settings
// (env/NCCL_*, OMPI_*, FI_*, UCX_*), and the runner was not busy, it launches `fabricgate ab`'s
// sequential design on those keys, with the baseline's settings as side A (unset=NAME for a
// setting the baseline did not have) and this run's as side B, under the run's lock, into
// <run dir>/paired/, and writes <run dir>/paired-check.json. A library, driver or version change
// cannot be switched inside the job: no check, and the run says why.
#include <optional>

#include "harness/gate/judge_run.hpp"
#include "harness/launch/run_orchestrator.hpp"
#include "harness/model/baseline.hpp"

namespace fabricgate::cli {

struct PairedCheckLimits {
  int min_pairs = 3;  // the first look
  int max_pairs = 6;  // then UNDECIDED: the key stays RUNNER-DIFFERS (exit 3), never a pass
};

// `base`: the run's own options (bench, launcher, ranks, timeouts, lock held by the caller);
// `run_dir`: the judged launch's directory.
gate::PairedCheckProvider paired_check_launcher(const launch::RunOptions& base,
                                                const std::filesystem::path& run_dir,
                                                const std::optional<Baseline>& baseline,
                                                PairedCheckLimits limits);

// `compare` and `report`: the check a run recorded (<run dir>/paired-check.json), if any;
// `run_path` is the run's directory or its run.json.
gate::PairedCheckProvider recorded_paired_check(const std::filesystem::path& run_path);

}  // namespace fabricgate::cli
