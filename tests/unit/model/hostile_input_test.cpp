// Hostile input at the model layer: the depth limit, unsigned numbers in messages, the text
// escapes every renderer and message uses, atomic writes that keep mode and links and clean up
// after a killed write, and the suite limits the harness and the bench share.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/suite.hpp"
#include "core/text_escape.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

std::string parse_error(const std::string& text) {
  try {
    parse_json_text(text, "in.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(model_Hostile, DepthLimitHoldsForArraysAndObjects) {
  EXPECT_EQ(parse_error(nested(kMaxJsonDepth)), "");
  EXPECT_NE(parse_error(nested(kMaxJsonDepth + 1)).find("in.json: JSON nested at most 64 levels"),
            std::string::npos);
  EXPECT_NE(parse_error(nested(60000)).find("nested at most 64"), std::string::npos);
  std::string objects;
  for (int i = 0; i < 65; ++i) objects += "{\"a\":";
  objects += "1" + std::string(65, '}');
  EXPECT_NE(parse_error(objects).find("nested at most 64"), std::string::npos);
}

TEST(model_Hostile, HugeUnsignedIntegersPrintAsTheyWereWritten) {
  const json doc =
      parse_json_text(R"({"a": 9223372036854775808, "b": 18446744073709551615})", "in.json");
  const JsonReader r(doc, "in.json");
  for (const auto& [field, text] :
       {std::pair{"/a", "9223372036854775808"}, {"/b", "18446744073709551615"}}) {
    try {
      r.integer_at(field);
      ADD_FAILURE() << field << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find("found -"), std::string::npos) << e.what();
    }
  }
}

TEST(model_Hostile, PrintableEscapesControlsAndCuts) {
  EXPECT_EQ(report::printable("a\nb\tc\x1b[2J\x07"), "a\\nb\\tc\\x1b[2J\\x07");
  EXPECT_EQ(report::printable("csi \xc2\x9b here, e-acute \xc3\xa9"),
            "csi \\u009b here, e-acute \xc3\xa9");
  // Found by fuzz_text_escape: a bad lead byte must not carry the newline after it through.
  EXPECT_EQ(report::printable("a\xed\n::b\xff"), "a\\xed\\n::b\\xff");
  const std::string huge(10u << 20, 'x');
  const std::string cut = report::printable(huge);
  EXPECT_LT(cut.size(), report::kMaxShownBytes + 64);
  EXPECT_NE(cut.find("(" + std::to_string(huge.size() - report::kMaxShownBytes) + " more bytes)"),
            std::string::npos);
  // A cut never splits a UTF-8 character.
  EXPECT_EQ(report::printable("ab\xc3\xa9", 3), "ab... (2 more bytes)");
}

TEST(model_Hostile, NoLineStartsAWorkflowCommand) {
  EXPECT_EQ(report::without_workflow_commands("ok\n::error::x\n  ::warning::y\na::b\n"),
            "ok\n\\x3a:error::x\n  \\x3a:warning::y\na::b\n");
  EXPECT_EQ(report::annotation_data("a%b\r\nc\x1b"), "a%25b%0D%0Ac\\x1b");
}

// The one path for CLI text: the renderer's line breaks stay, everything a terminal or the
// Actions runner would obey inside a line is shown escaped.
TEST(model_Hostile, ConsoleTextKeepsLinesAndDisarmsTheRest) {
  EXPECT_EQ(report::console_text("a: \x1b]0;t\x07 b\n::error::x\r\n\t::add-mask::y\n"),
            "a: \\x1b]0;t\\x07 b\n\\x3a:error::x\\r\n\\t::add-mask::y\n");
  EXPECT_EQ(report::console_text("csi \x1b[2J c1 \xc2\x9b"
                                 "2J del \x7f bad \xff"),
            "csi \\x1b[2J c1 \\u009b2J del \\x7f bad \\xff");
  EXPECT_EQ(report::console_text("plain\nlines\n"), "plain\nlines\n");
  EXPECT_EQ(report::console_text(""), "");
  const std::string long_line(100000, 'x');
  EXPECT_EQ(report::console_text(long_line), long_line) << "nothing is cut";
}

TEST(model_Hostile, ErrorMessagesArePrintableAndBounded) {
  const InputError e("f.json", "/k",
                     "a key, found \"x\n::error::owned\x1b\" " + std::string(1 << 20, 'y'));
  const std::string what = e.what();
  EXPECT_EQ(what.find('\n'), std::string::npos);
  EXPECT_EQ(what.find('\x1b'), std::string::npos);
  EXPECT_LT(what.size(), 8192u);
}

class AtomicWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fabricgate-atomic-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static mode_t mode_of(const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0);
    return st.st_mode & 07777;
  }
  fs::path dir_;
};

TEST_F(AtomicWrite, KeepsTheModeOfTheFileItReplaces) {
  const fs::path f = dir_ / "b.json";
  write_file_atomically(f, "1");
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(mode_of(f), static_cast<mode_t>(0644 & ~mask))
      << "a new file is 0644 (less the umask), not mkstemp's 0600";
  fs::permissions(f, static_cast<fs::perms>(0664));
  write_file_atomically(f, "2");
  EXPECT_EQ(mode_of(f), 0664u);
  EXPECT_EQ(slurp(f), "2");
}

TEST_F(AtomicWrite, WritesThroughASymlink) {
  fs::create_directories(dir_ / "store");
  const fs::path target = dir_ / "store/b.json";
  write_file_atomically(target, "old");
  const fs::path link = dir_ / "b.json";
  fs::create_symlink(target, link);
  write_file_atomically(link, "new");
  EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced by a file";
  EXPECT_EQ(slurp(target), "new");
}

TEST_F(AtomicWrite, RemovesTempFilesOfAKilledWrite) {
  const fs::path f = dir_ / "b.json";
  std::ofstream(dir_ / ".b.json.tmpAbC123") << "half";  // what a write killed before rename leaves
  std::ofstream(dir_ / ".other.json.tmpAbC123") << "not ours";
  write_file_atomically(f, "whole");
  EXPECT_FALSE(fs::exists(dir_ / ".b.json.tmpAbC123"));
  EXPECT_TRUE(fs::exists(dir_ / ".other.json.tmpAbC123"));
  EXPECT_EQ(slurp(f), "whole");
}

std::string suite_error(const std::string& text) {
  const json doc = parse_json_text(text, "s.json");
  try {
    validate_suite_document(JsonReader(doc, "s.json"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(model_SuiteLimits, SizesRepetitionsAndTimeoutsAreBounded) {
  EXPECT_EQ(
      suite_error(
          R"({"benchmarks": [{"family": "coll", "backend": "mpi", "sizes": {"list": [8, "1M"]}}]})"),
      "");
  EXPECT_NE(suite_error(R"({"benchmarks": [{"sizes": {"list": [0]}}]})")
                .find("/benchmarks/0/sizes/list/0"),
            std::string::npos);
  EXPECT_NE(suite_error(R"({"benchmarks": [{"sizes": {"list": [9223372036854775808]}}]})")
                .find("found 9223372036854775808"),
            std::string::npos);
  EXPECT_NE(
      suite_error(R"({"benchmarks": [{"sizes": {"min": 8, "max": "2T"}}]})").find("/sizes/max"),
      std::string::npos);
  EXPECT_NE(
      suite_error(R"({"benchmarks": [{"repetitions": 0}]})").find("/benchmarks/0/repetitions"),
      std::string::npos);
  EXPECT_NE(suite_error(R"({"defaults": {"timeout_s": 0}, "benchmarks": [{}]})")
                .find("/defaults/timeout_s"),
            std::string::npos);
  EXPECT_NE(
      suite_error(R"({"benchmarks": [{"dtypes": ["float33"]}]})").find("/benchmarks/0/dtypes/0"),
      std::string::npos);
  EXPECT_NE(suite_error(R"({"benchmarks": [{"ops": []}]})").find("/benchmarks/0/ops"),
            std::string::npos);
}

TEST(model_SuiteLimits, RankCountsAreBounded) {
  EXPECT_NO_THROW(require_rank_count(1, "--ranks", ""));
  EXPECT_NO_THROW(require_rank_count(kMaxRanks, "--ranks", ""));
  EXPECT_THROW(require_rank_count(0, "--ranks", ""), InputError);
  EXPECT_THROW(require_rank_count(-5, "--ranks", ""), InputError);
  EXPECT_THROW(require_rank_count(1000000, "--ranks", ""), InputError);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
