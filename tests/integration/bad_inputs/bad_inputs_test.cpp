// Every row of tests/data/bad_inputs/manifest.json runs the real `fabricgate` binary on a private
// copy of the corpus and checks the input-error contract of docs/DESIGN.md: exit 2 (or the row's
// expected code), a message naming the file and the JSON field, no file of the copy changed, and
// no new file except where the row allows it (never a leftover ".tmp" file of an atomic write).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/integration/bad_inputs/child_process.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kCorpus = fs::path(FABRICGATE_SOURCE_DIR) / "tests/data/bad_inputs";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Row {
  std::string name;
  json spec;
};

std::vector<Row> load_rows() {
  std::vector<Row> rows;
  const json manifest = json::parse(slurp(kCorpus / "manifest.json"));
  for (const json& r : manifest.at("rows")) rows.push_back({r.at("name").get<std::string>(), r});
  return rows;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t pos = s.find(from); pos != std::string::npos;
       pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
  return s;
}

// Relative path -> content of every regular file under `root`.
std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) files[fs::relative(e.path(), root).string()] = slurp(e.path());
  }
  return files;
}

class BadInput : public ::testing::TestWithParam<Row> {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fabricgate-badin-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    fs::create_directories(root_ / "logs");
    fs::create_directories(root_ / "tree/work");     // the child's cwd: stray writes show up here
    fs::create_directories(root_ / "tree/scratch");  // outputs a row allows (run directories)
    fs::copy(kCorpus, root_ / "tree/data", fs::copy_options::recursive);
    // A passing compare records into the results store beside the run by default; rows that
    // test the store name one with --store, the others must leave the corpus as it was.
    ::setenv("FABRICGATE_STORE", "none", 1);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(root_);  // kept for a look when the row failed
  }

  std::string expand(const std::string& s) const {
    std::string out = replace_all(s, "{data}", (root_ / "tree/data").string());
    out = replace_all(out, "{scratch}", (root_ / "tree/scratch").string());
    return replace_all(out, "{bench}", FABRICGATE_BENCH);
  }

  fs::path root_;
};

TEST_P(BadInput, ExitCodeMessageAndNothingOverwritten) {
  const json& row = GetParam().spec;
  if (row.contains("skip_reason"))
    GTEST_SKIP() << "known bug: " << row.at("skip_reason").get<std::string>();

  const fs::path tree = root_ / "tree";
  for (const json& p : row.at("preexisting")) {
    ASSERT_TRUE(fs::exists(tree / "data" / p.get<std::string>()))
        << "manifest names a missing file " << p;
  }
  std::vector<std::string> argv{FABRICGATE_CLI};
  for (const json& a : row.at("args")) argv.push_back(expand(a.get<std::string>()));
  const auto before = snapshot(tree);

  const testing::ChildResult r = testing::run_child(
      argv, tree / "work", root_ / "logs", std::chrono::seconds(120), {"GITHUB_STEP_SUMMARY"});

  std::string command;
  for (const std::string& a : argv) command += a + " ";
  SCOPED_TRACE("command: " + command + "\noutput:\n" + r.output);
  ASSERT_FALSE(r.timed_out) << "no answer within 120 s";
  ASSERT_EQ(r.signal, 0) << "killed by signal " << r.signal << " (a crash)";
  EXPECT_EQ(r.exit_code, row.at("expect_exit").get<int>());
  for (const json& m : row.at("expect_message")) {
    EXPECT_NE(r.output.find(m.get<std::string>()), std::string::npos)
        << "message lacks \"" << m << "\"";
  }
  // Whatever the input, output is printable lines: no terminal controls (ESC, BEL, CR...), no line
  // GitHub Actions would run as a workflow command (only the annotations format makes those),
  // and no flood (input strings are cut).
  const bool annotations = row.value("workflow_commands", false);
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 2, "::") == 0 && !annotations) {
      ADD_FAILURE() << "workflow command in the output: " << line.substr(0, 200);
    }
    for (const char c : line) {
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t') {
        ADD_FAILURE() << "control character " << static_cast<int>(c)
                      << " in the output line: " << line.substr(0, 200);
        break;
      }
    }
  }
  EXPECT_LT(r.output.size(), 256u * 1024) << "output not cut: " << r.output.size() << " bytes";

  // Nothing that existed changed; new files only where the row allows, never a temp file.
  const auto after = snapshot(tree);
  for (const auto& [path, content] : before) {
    const auto it = after.find(path);
    if (it == after.end()) {
      ADD_FAILURE() << path << " was removed";
    } else if (it->second != content) {
      ADD_FAILURE() << path << " was modified";
    }
  }
  std::vector<std::string> allowed;
  for (const json& a : row.at("allow_new"))
    allowed.push_back(fs::relative(expand(a.get<std::string>()), tree).string());
  for (const auto& [path, content] : after) {
    EXPECT_EQ(fs::path(path).filename().string().find(".tmp"), std::string::npos)
        << "temporary file left: " << path;
    if (before.count(path) != 0) continue;
    bool ok = false;
    for (const std::string& a : allowed) ok = ok || path.rfind(a + "/", 0) == 0;
    EXPECT_TRUE(ok) << "unexpected new file " << path;
  }
}

std::string row_name(const ::testing::TestParamInfo<Row>& info) {
  std::string n = info.param.name;
  for (char& c : n) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(Manifest, BadInput, ::testing::ValuesIn(load_rows()), row_name);

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
