// The quiet console: keys that need a look are listed with their notes; passing, skipped and new
// keys are summarised (notes grouped per pitfall, skips per reason); --verbose lists everything;
// the Markdown report keeps every grouped note; pitfall codes point into docs/PITFALLS.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "core/errors.hpp"
#include "harness/report/note_groups.hpp"
#include "harness/report/render.hpp"

namespace fabricgate::report {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using verdict::KeyComparison;
using verdict::Verdict;

KeyComparison key(const std::string& name, Verdict v) {
  KeyComparison k;
  k.key = name;
  k.family = "coll";
  k.backend = "mpi";
  k.op = "all_reduce";
  k.bytes = 8;
  k.nranks = 2;
  k.verdict = v;
  k.time_us_now = 1;
  k.time_us_baseline = 1;
  k.reason = "8 B: time_us 1 -> 1";
  return k;
}

// 100 passing keys with a P09 note, 48 skipped for one reason and 2 for another, one regression.
verdict::Comparison suite_of_many() {
  verdict::Comparison c;
  c.run_id = "r1";
  c.platform = "cpu-test";
  c.has_baseline = true;
  c.baseline_source = "baselines/cpu-test.json";
  for (int i = 0; i < 100; ++i) {
    KeyComparison k =
        key("coll/mpi/all_reduce/float32/sum/bytes:" + std::to_string(8 * (i + 1)) + "/ranks:2/oop",
            Verdict::pass);
    k.notes = {{"P09", "note",
                "warm-up 7.3 us/op is 6.6x the timed median 1.09 us (first-use setup, P09)"}};
    c.keys.push_back(k);
  }
  for (int i = 0; i < 50; ++i) {
    KeyComparison k =
        key("coll/mpi/all_reduce/float16/sum/bytes:" + std::to_string(8 * (i + 1)) + "/ranks:2/oop",
            Verdict::skipped);
    k.reason = i < 48 ? "skipped: MPI has no standard type for float16"
                      : "skipped: in-place alltoall is not measured";
    c.keys.push_back(k);
  }
  KeyComparison reg = key("coll/mpi/alltoall/float32/bytes:4096/ranks:2/oop", Verdict::regression);
  reg.bytes = 4096;
  reg.reason = "4 KiB: time_us 1.34 us -> 77.1 us (-98.3% worse, tolerance 70.0%)";
  reg.notes = {{"P09", "note", "warm-up 40 us/op is 9x the timed median"}};
  c.keys.insert(c.keys.begin(), reg);
  c.exit_code = ExitCode::gate_failure;
  return c;
}

std::size_t lines(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST(QuietConsole, ListsWhatNeedsALookAndSummarisesTheRest) {
  const std::string out = render_console(suite_of_many(), RenderOptions{});
  // The regression with its reason and its own note under it.
  EXPECT_TRUE(std::regex_search(
      out,
      std::regex(
          R"(REGRESSION\s+coll/mpi/alltoall\S+\s+4 KiB[^\n]*\n\s+4 KiB: time_us[^\n]*\n\s+P09 note: warm-up 40)")))
      << out;
  EXPECT_NE(out.find("PASS on 100 keys"), std::string::npos) << out;
  EXPECT_NE(out.find("SKIPPED 48 keys (e.g. coll/mpi/all_reduce/float16/sum/bytes:8/ranks:2/oop): "
                     "MPI has no standard type for float16"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("SKIPPED 2 keys"), std::string::npos) << out;
  EXPECT_NE(out.find("P09 note on 100 keys - report.md lists them"), std::string::npos)
      << out;  // not the regression's
  EXPECT_NE(out.find("Pitfall codes: docs/PITFALLS.md#p09"), std::string::npos) << out;
  EXPECT_EQ(out.find("PASS    "), std::string::npos) << "no passing row in the quiet console:\n"
                                                     << out;
  // 151 keys; 15 lines before the two questions (Change:, Runner:) were added under the headline
  EXPECT_LT(lines(out), 17u) << out;
}

TEST(QuietConsole, VerboseListsEveryKeyWithItsNotes) {
  RenderOptions o;
  o.verbose = true;
  const std::string out = render_console(suite_of_many(), o);
  EXPECT_NE(out.find("PASS    "), std::string::npos);
  EXPECT_EQ(out.find("PASS on 100 keys"), std::string::npos);
  EXPECT_GT(lines(out), 250u);  // 151 rows, the regression's reason and 101 notes
}

TEST(QuietConsole, AllPassingFitsInAFewLines) {
  verdict::Comparison c = suite_of_many();
  c.keys.erase(c.keys.begin());  // the regression
  c.exit_code = ExitCode::pass;
  const std::string out = render_console(c, RenderOptions{});
  EXPECT_EQ(out.find("VERDICT"), std::string::npos) << "no table header when nothing is listed:\n"
                                                    << out;
  // 8 lines before the two questions (Change:, Runner:) were added under the headline
  EXPECT_LE(lines(out), 10u) << out;
}

TEST(QuietConsole, NewKeysAreOneLineThatSaysHowToAddThem) {
  verdict::Comparison c;
  c.has_baseline = true;
  for (int i = 0; i < 9; ++i)
    c.keys.push_back(
        key("coll/mpi/alltoallv/float32/bytes:" + std::to_string(12 * (i + 1)) + "/ranks:2/oop",
            Verdict::new_key));
  const std::string out = render_console(c, RenderOptions{});
  EXPECT_NE(
      out.find("NEW 9 keys not in the baseline (e.g. "
               "coll/mpi/alltoallv/float32/bytes:12/ranks:2/oop): `fabricgate baseline update`"),
      std::string::npos)
      << out;
}

TEST(QuietConsole, RunTextIsShownWithoutControlCharacters) {
  verdict::Comparison c;
  KeyComparison k = key("coll/mpi/x/bytes:8/ranks:2/oop", Verdict::skipped);
  k.reason = "skipped: evil\033[2J\rtext";
  c.keys.push_back(k);
  const std::string out = render_console(c, RenderOptions{});
  EXPECT_EQ(out.find('\033'), std::string::npos) << out;
  EXPECT_EQ(out.find('\r'), std::string::npos) << out;
  EXPECT_NE(out.find("evil?[2J?text"), std::string::npos) << out;
}

TEST(NoteGroups, MarkdownListsEveryGroupedNoteWithItsKey) {
  const std::string md = markdown_note_groups(suite_of_many().keys);
  EXPECT_NE(md.find("**P09 note** on 100 keys (`docs/PITFALLS.md#p09`)"), std::string::npos)
      << md.substr(0, 400);
  EXPECT_NE(md.find("`coll/mpi/all_reduce/float32/sum/bytes:800/ranks:2/oop`: warm-up 7.3 us/op"),
            std::string::npos);
  EXPECT_EQ(md.find("alltoall/float32/bytes:4096"),
            std::string::npos);  // the regression's row carries its own
}

TEST(NoteGroups, PitfallLinksOnlyForPCodes) {
  EXPECT_EQ(pitfall_link("P09"), "docs/PITFALLS.md#p09");
  EXPECT_EQ(pitfall_link("P19"), "docs/PITFALLS.md#p19");
  EXPECT_EQ(pitfall_link("rate"), "");
  EXPECT_EQ(pitfall_link("P1"), "");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report
