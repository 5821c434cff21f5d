#pragma once
// Comparing a run with its platform's baseline: one verdict per key, the fingerprint guard, the
// exit code. The CLI (`fabricgate compare`, `fabricgate report`, `fabricgate run`) calls this
// and hands the Comparison to a renderer.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/gate/gross_change.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

struct HostHistory;

struct CompareOptions {
  bool force = false;           // compare despite a different fingerprint identity
  bool force_platform = false;  // compare despite a different platform key (fingerprint_guard.hpp)
  // Where policies/roofline.json is looked for (the first directory holding one wins, with
  // roofline/<platform>.json over it); empty: no roofline judgement (docs/ROOFLINE.md).
  std::vector<std::filesystem::path> roofline_dirs = {};
  // Which question the exit code answers (comparison.hpp GateMode). `fleet` judges every key
  // against the platform centre; `change` and `both` against this host's own level where it has
  // one (its baseline sessions, or `host_history`).
  verdict::GateMode gate = verdict::GateMode::both;
  const HostHistory* host_history = nullptr;  // the judged host's earlier launches (store)
  const HostHistory* host_anchor = nullptr;   // its first launches: its first accepted level
  // The platform's gross-change limits (gross_change.hpp), or null: a changed setup's key on a
  // host with no level of its own is then RUNNER-DIFFERS however far it fell.
  const GrossChangeLimits* gross_change = nullptr;
};

// `baseline` may be null: every key is NEW and the result says how to create a baseline.
// Throws InputError for a different identity (unless forced) and for P02 (GPUs per process).
// Exit code: 1 when a failing verdict exists; else 3 for an incomplete run (whatever it did
// measure was still compared); else 0.
verdict::Comparison compare_run(const RunRecord& run, const Baseline* baseline,
                                const CompareOptions& options);

// compare_run's verdicts before the outcome is settled: judge_run's first stage (judge_run.hpp
// settles once, after every stage).
verdict::Comparison compare_keys(const RunRecord& run, const Baseline* baseline,
                                 const CompareOptions& options);

// Where a baseline lives: --baseline FILE if given, else <baselines_dir>/<platform>/<suite>.json,
// else the older <baselines_dir>/<platform>.json (harness/model/baseline_location.hpp).
std::filesystem::path baseline_path_for(const RunRecord& run, const std::string& explicit_file,
                                        const std::filesystem::path& baselines_dir);

// Loads the baseline if its file exists (an explicit --baseline must exist), else nullopt.
std::optional<Baseline> find_baseline(const RunRecord& run, const std::string& explicit_file,
                                      const std::filesystem::path& baselines_dir);

// "fabricgate baseline create --from <run> --from <run2> --from <run3> --out baselines/x.json"
std::string create_baseline_command(const RunRecord& run, const std::filesystem::path& out);

}  // namespace fabricgate::gate
