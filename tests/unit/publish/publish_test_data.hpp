#pragma once
// A run and its comparison for the publish tests: the run goes through the real loader (via the
// gate fixtures); the comparison is filled by hand so each payload field has a known source.
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::testing {

// Keys: 1 MiB all_reduce (busbw), 8 KiB send (no busbw), 64 MiB all_reduce with status "error".
inline RunRecord publish_run() {
  ResultSpec reduce;
  reduce.time_us = {10.0, 10.5, 11.0};
  ResultSpec send;
  send.op = "send";
  send.family = "p2p";
  send.bytes = 8192;
  send.busbw_factor = 0;
  send.time_us = {2.0, 2.0, 2.5};
  ResultSpec broken;
  broken.bytes = 64u << 20;
  broken.time_us = {100.0};
  broken.status = "error";
  RunSpec rs;
  rs.run_id = "run-pub";
  json doc = make_run(rs, {make_result(reduce), make_result(send), make_result(broken)});
  doc["metadata"]["ci_run_url"] = "https://github.com/octo/fabric/actions/runs/9";
  return to_run(doc);
}

inline verdict::KeyComparison key_comparison(const BenchmarkResult& b, verdict::Verdict v,
                                             std::string reason) {
  verdict::KeyComparison k;
  k.key = b.key;
  k.verdict = v;
  k.reason = std::move(reason);
  return k;
}

// The all_reduce regressed to 0.9 of the baseline (with a '<' in its reason), the send passed.
inline verdict::Comparison publish_comparison(const RunRecord& run) {
  verdict::Comparison c;
  c.run_id = run.run_id;
  c.platform = run.platform;
  c.has_baseline = true;
  c.baseline_source = "baselines/cpu-test-2c.json";
  verdict::KeyComparison reduce = key_comparison(run.benchmarks[0], verdict::Verdict::regression,
                                                 "busbw -10 % < -3 % tolerance");
  reduce.judgement = verdict::MetricJudgement{};
  reduce.judgement->metric = verdict::Metric::busbw_GBps;
  reduce.judgement->performance_ratio = 0.9;
  c.keys.push_back(reduce);
  c.keys.push_back(key_comparison(run.benchmarks[1], verdict::Verdict::pass, "within tolerance"));
  c.keys.push_back(
      key_comparison(run.benchmarks[2], verdict::Verdict::invalid, "benchmark errored"));
  c.exit_code = ExitCode::gate_failure;
  return c;
}

}  // namespace fabricgate::testing
