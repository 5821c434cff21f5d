#pragma once
// `fabricgate ab`: launch side A and side B of an A/B interleaved, A B A B ..., each launch a fresh
// process through run_suite, pair after pair until every key is decided or the schedule's most
// pairs have run (ab_sequential.hpp: one look after each pair from min_pairs on) (so mpirun/srun,
// run directories and crash handling are the same as `fabricgate run`), under one runner lock held
// across all launches so no other run measures in between. Each launch's loaded libraries are
// verified before its numbers count; after every complete pair ab.json is rewritten atomically, so
// finished pairs survive a later crash.
//   results/<platform>/<run_id>/{a-1,b-1,a-2,b-2,...}/run.json + ab.json   (run_id ends in "-ab")
#include <filesystem>
#include <string>

#include "harness/ab/ab_compare.hpp"
#include "harness/ab/ab_sequential.hpp"
#include "harness/launch/run_orchestrator.hpp"
#include "harness/model/baseline_location.hpp"

namespace fabricgate::launch {

struct AbRunOptions {
  RunOptions run;  // suite, launcher, ranks, bench, timeout, lock, results dir, platform; one
                   // scenario at most
  ab::AbSide a;
  ab::AbSide b;
  ab::AbSchedule schedule;  // min_pairs = max_pairs: the fixed design (--pairs N)
  ab::AbOptions compare;    // policy, tolerance, confidence (pairs_requested is filled in here)
  // Tolerance policy: this baseline's (must exist) or, when empty,
  // <baselines_dir>/<platform>/<suite>.json's (or <platform>.json's) if that exists; otherwise the
  // defaults. Ignored when compare.tolerance is set.
  std::string policy_baseline;
  std::filesystem::path baselines_dir = kBaselinesDir;
  std::string run_id_tag;  // appended to the run id ("-c3": one probe of a bisection)
  // Non-empty: the A/B's directory instead of <results_dir>/<platform>/<run id> (`fabricgate run`'s
  // paired check: <run dir>/paired).
  std::filesystem::path series_dir;
};

struct AbRunResult {
  std::filesystem::path dir;  // holds ab.json and the launches
  ab::AbComparison comparison;
};

// Throws InputError for a bad request, a refused suite or a side that loaded the wrong library,
// InfraError when the machine changed between launches (ab.json then says why the A/B stopped).
// A crashed or hung launch ends the A/B early: the pairs before it are compared, marked incomplete.
AbRunResult run_ab(const AbRunOptions& options);

}  // namespace fabricgate::launch
