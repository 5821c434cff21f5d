// JSON files fabricgate owns: strict reading with errors naming file and field, atomic writes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "core/json_file.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

std::string error_of(const std::string& text, std::string_view schema = {}) {
  try {
    parse_json_text(text, "in.json", schema);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(model_JsonText, RejectsDuplicateKeysAtAnyDepth) {
  EXPECT_NE(error_of(R"({"a": 1, "a": 2})").find("duplicate object key \"a\""), std::string::npos);
  EXPECT_NE(error_of(R"({"x": [{"k": 1}, {"k": 2, "k": 3}]})").find("\"k\""), std::string::npos);
  // The same key in sibling objects is fine.
  EXPECT_EQ(error_of(R"({"x": [{"k": 1}, {"k": 2}], "y": {"k": 3}})"), "");
}

TEST(model_JsonText, MalformedTruncatedAndNonUtf8AreInputErrors) {
  EXPECT_NE(error_of(R"({"a": )").find("in.json: not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("{\"a\": \"\xff\xfe\"}").find("not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("NaN").find("not valid JSON"), std::string::npos);
  EXPECT_NE(error_of(R"({"v": 1e400})").find("not valid JSON"),
            std::string::npos);  // overflow, not inf
  EXPECT_NE(error_of("").find("not valid JSON"), std::string::npos);
}

TEST(model_JsonText, SchemaIsChecked) {
  EXPECT_EQ(error_of(R"({"schema": "fabricgate.run/1"})", "fabricgate.run/1"), "");
  EXPECT_NE(error_of(R"({"schema": "fabricgate.run/2"})", "fabricgate.run/1").find("field /schema"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"x": 1})", "fabricgate.run/1").find("field /schema"), std::string::npos);
  EXPECT_NE(error_of(R"([1])", "fabricgate.run/1").find("a JSON object"), std::string::npos);
}

TEST(model_JsonReader, ErrorsNameFileFieldAndExpectation) {
  const json doc = json::parse(R"({"a": {"b": -1, "c": "x"}})");
  const JsonReader rd(doc, "f.json");
  try {
    rd.non_negative_at("/a/b");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "f.json: field /a/b: expected a number >= 0, found -1.000000");
    EXPECT_EQ(e.field(), "/a/b");
  }
  EXPECT_THROW(rd.number_at("/a/c"), InputError);
  EXPECT_THROW(rd.at("/a/missing"), InputError);
  EXPECT_EQ(rd.find("/a/missing"), nullptr);
}

TEST(model_SafeNames, RejectPathTraversalAndShellSyntax) {
  EXPECT_TRUE(is_safe_name("h200-sxm-x2-nv18"));
  EXPECT_TRUE(is_safe_name("20261129T190000Z-quick-default"));
  for (const char* bad : {"", "../x", "a/b", ".hidden", "a b", "x;rm", "$(id)", "x`y`"}) {
    EXPECT_FALSE(is_safe_name(bad)) << bad;
  }
  EXPECT_FALSE(is_safe_name(std::string(129, 'a')));
}

TEST(model_AtomicWrite, ReplacesWholeFileAndLeavesNoTemporaries) {
  const fs::path dir = fs::temp_directory_path() / ("fg-atomic-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const fs::path file = dir / "sub" / "b.json";
  write_json_atomically(file, {{"schema", "x/1"}, {"v", 1}});
  write_json_atomically(file, {{"schema", "x/1"}, {"v", 2}});
  EXPECT_EQ(load_json_file(file, "x/1")["v"], 2);
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir / "sub")) ++entries;
  EXPECT_EQ(entries, 1);  // no temporary left beside it
  // A write that cannot happen (the target is a directory) fails and keeps what was there.
  EXPECT_THROW(write_file_atomically(dir / "sub", "x"), InfraError);
  EXPECT_EQ(load_json_file(file)["v"], 2);
  fs::remove_all(dir);
}

TEST(model_JsonLines, AppendsWholeLines) {
  const fs::path file =
      fs::temp_directory_path() / ("fg-lines-" + std::to_string(::getpid()) + ".jsonl");
  fs::remove(file);
  append_json_line(file, {{"a", 1}});
  append_json_line(file, {{"a", 2}});
  std::ifstream in(file);
  std::string l1, l2;
  std::getline(in, l1);
  std::getline(in, l2);
  EXPECT_EQ(json::parse(l1)["a"], 1);
  EXPECT_EQ(json::parse(l2)["a"], 2);
  fs::remove(file);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(model_JsonPointer, KeysFromInputAreEscaped) {
  EXPECT_EQ(json_pointer_escape("Ring/LL"), "Ring~1LL");
  EXPECT_EQ(json_pointer_escape("R~ing"), "R~0ing");
  const json doc = json::parse(R"({"algo": {"Ring/LL": 3, "R~ing": 4}})");
  const JsonReader rd(doc, "f.json");
  EXPECT_EQ(rd.integer_at("/algo/" + json_pointer_escape("Ring/LL")), 3);
  EXPECT_EQ(rd.integer_at("/algo/" + json_pointer_escape("R~ing")), 4);
  // An unescaped pointer is the input's problem, reported as such (never an internal error).
  EXPECT_THROW(rd.find("/algo/R~ing"), InputError);
}

TEST(model_AtomicWrite, InvalidUtf8FromProbesIsReplacedNotFatal) {
  const fs::path file =
      fs::temp_directory_path() / ("fg-utf8-" + std::to_string(::getpid()) + ".json");
  write_json_atomically(file, {{"fi_info", std::string("efa\xff\xfe")}});
  EXPECT_EQ(load_json_file(file)["fi_info"], "efa\xEF\xBF\xBD\xEF\xBF\xBD");
  fs::remove(file);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
