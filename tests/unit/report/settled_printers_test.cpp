// The printers decide nothing (issue 59): each format is handed a settled judgement whose verdicts
// contradict the keys' numbers, and prints the verdicts as given. A printer that re-derived the
// change or runner answer from the keys would print the other word here.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "harness/report/render.hpp"
#include "harness/verdict/finding_ids.hpp"

namespace fabricgate::report {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using verdict::ChangeAnswer;
using verdict::Comparison;
using verdict::KeyComparison;
using verdict::OutcomeCause;
using verdict::Verdict;

Comparison with_keys(Verdict v) {
  Comparison c;
  c.run_id = "r1";
  c.platform = "cpu-test";
  c.has_baseline = true;
  c.host_id = "h1";
  for (int i = 0; i < 3; ++i) {
    KeyComparison k;
    k.key = "coll/mpi/all_reduce/float32/sum/bytes:" + std::to_string(64 << i) + "/ranks:2/oop";
    k.family = "coll";
    k.backend = "mpi";
    k.op = "all_reduce";
    k.bytes = static_cast<std::uint64_t>(64 << i);
    k.nranks = 2;
    k.verdict = v;
    k.reason = "numbers";
    c.keys.push_back(k);
  }
  return c;
}

std::string all_formats(const Comparison& c) {
  std::string out;
  for (const ReportFormat f :
       {ReportFormat::console, ReportFormat::markdown, ReportFormat::html, ReportFormat::json})
    out += render(c, f, RenderOptions{}) + "\n";
  return out;
}

// Every key passed by its numbers; the judgement settled FAIL (as a failing finding would).
TEST(report_SettledPrinters, AFailSettledOverPassingKeysIsPrintedAsAFail) {
  Comparison c = with_keys(Verdict::pass);
  c.exit_code = ExitCode::gate_failure;
  c.settled.cause = OutcomeCause::failed;
  c.settled.change = ChangeAnswer::fail;
  c.settled.change_failing = 2;
  c.settled.runner = "HOST-OUTLIER";
  const nlohmann::json j = nlohmann::json::parse(render(c, ReportFormat::json, RenderOptions{}));
  EXPECT_EQ(j["change"]["verdict"], "FAIL");
  EXPECT_EQ(j["runner"]["verdict"], "HOST-OUTLIER");
  EXPECT_EQ(j["headline"].get<std::string>().rfind("FAIL: ", 0), 0U) << j["headline"];
  const std::string out = all_formats(c);
  EXPECT_NE(out.find("Change: FAIL, 2 key(s) fail"), std::string::npos) << out;
  EXPECT_EQ(out.find("Change: no regression"), std::string::npos) << out;
  EXPECT_EQ(out.find("is like the fleet"), std::string::npos) << out;
}

// Every key failed by its numbers; the judgement settled a pass (an ack in force, say).
TEST(report_SettledPrinters, APassSettledOverFailingKeysIsPrintedAsAPass) {
  Comparison c = with_keys(Verdict::regression);
  c.exit_code = ExitCode::pass;
  c.settled.cause = OutcomeCause::pass;
  c.settled.change = ChangeAnswer::no_regression;
  c.settled.runner = "LIKE-FLEET";
  const nlohmann::json j = nlohmann::json::parse(render(c, ReportFormat::json, RenderOptions{}));
  EXPECT_EQ(j["change"]["verdict"], "PASS");
  EXPECT_EQ(j["runner"]["verdict"], "LIKE-FLEET");
  EXPECT_EQ(j["headline"].get<std::string>().rfind("PASS: 3 keys compared", 0), 0U)
      << j["headline"];
  const std::string out = all_formats(c);
  EXPECT_NE(out.find("Change: no regression"), std::string::npos) << out;
  EXPECT_EQ(out.find("Change: FAIL"), std::string::npos) << out;
}

// The cause names the exit code's reason, whatever the counts say: a settled RUNNER DIFFERS over
// keys none of which is RUNNER-DIFFERS, and a settled busy runner over an unloaded one.
TEST(report_SettledPrinters, TheSettledCauseNamesTheHeadline) {
  Comparison c = with_keys(Verdict::pass);
  c.exit_code = ExitCode::infra_failure;
  c.settled.cause = OutcomeCause::runner_differs;
  c.settled.change = ChangeAnswer::runner_differs;
  EXPECT_EQ(c.headline().rfind("RUNNER DIFFERS, CHANGE NOT JUDGED HERE", 0), 0U) << c.headline();
  EXPECT_EQ(
      nlohmann::json::parse(render(c, ReportFormat::json, RenderOptions{}))["change"]["verdict"],
      "NOT-JUDGED");
  c.settled.cause = OutcomeCause::runner_busy;
  c.settled.change = ChangeAnswer::runner_busy;
  EXPECT_EQ(c.headline().rfind("RUNNER BUSY, NOT JUDGED", 0), 0U) << c.headline();
  EXPECT_NE(c.change_line().find("Change: not judged, the runner was busy"), std::string::npos)
      << c.change_line();
}

// The Change line counts the keys judged against this host's own level and against the fleet by
// the named references, each in one family: "fleet-for-host" is the fleet's band (a NOISY host),
// not the host's level, and a reference that starts like a family's name counts in neither.
TEST(report_SettledPrinters, TheChangeLineCountsEachReferenceInItsFamily) {
  Comparison c = with_keys(Verdict::pass);
  for (int i = 0; i < 3; ++i) c.keys.push_back(c.keys[0]);
  const char* refs[] = {verdict::reference::fleet,         verdict::reference::fleet_for_host,
                        verdict::reference::host_baseline, verdict::reference::host_history,
                        verdict::reference::host_anchor,   "hostile"};
  for (std::size_t i = 0; i < c.keys.size(); ++i) {
    c.keys[i].judgement.emplace();
    c.keys[i].judgement->reference = refs[i];
  }
  c.settled.cause = OutcomeCause::pass;
  c.settled.change = ChangeAnswer::no_regression;
  EXPECT_NE(c.change_line().find("; 3 key(s) judged against host h1's own history, 2 against the "
                                 "fleet"),
            std::string::npos)
      << c.change_line();
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report
