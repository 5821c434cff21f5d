// load_run: run directories, run.json files, crashed runs (records.jsonl), and every kind of bad
// input -> InputError naming the file and the JSON pointer.
#include "harness/model/run_record.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::json;

json good_run() {
  testing::ResultSpec a;
  a.time_us = {10, 11, 12};
  testing::ResultSpec b = a;
  b.bytes = 4096;
  return testing::make_run(testing::RunSpec{}, {testing::make_result(a), testing::make_result(b)});
}

class gate_RunFiles : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::fresh_temp_dir("run-record"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path write_text(const std::string& name, const std::string& text) {
    const auto p = dir_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p;
  }

  // Expects load_run(path) to throw InputError whose field and message contain the given parts.
  void expect_error(const std::filesystem::path& path, const std::string& field,
                    const std::string& words) {
    try {
      load_run(path);
      FAIL() << "no error for " << field;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
      EXPECT_EQ(e.field(), field) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  }

  void expect_error_after(const std::function<void(json&)>& damage, const std::string& field,
                          const std::string& words) {
    json doc = good_run();
    damage(doc);
    expect_error(write_text("run.json", doc.dump()), field, words);
  }

  std::filesystem::path dir_;
};

TEST_F(gate_RunFiles, HostCpuPressureIsReadAndOutOfRangeIsRefused) {
  json doc = good_run();
  EXPECT_FALSE(load_run(write_text("a/run.json", doc.dump())).host_cpu_pressure);
  doc["host_cpu_pressure"] = {{"some_share", 0.42}, {"source", "/proc/pressure/cpu"}};
  const RunRecord busy = load_run(write_text("b/run.json", doc.dump()));
  ASSERT_TRUE(busy.host_cpu_pressure);
  EXPECT_DOUBLE_EQ(*busy.host_cpu_pressure, 0.42);
  expect_error_after(
      [](json& d) {
        d["host_cpu_pressure"] = {{"some_share", 1.5}};
      },
      "/host_cpu_pressure/some_share", "a share in [0, 1]");
  expect_error_after(
      [](json& d) {
        d["host_cpu_pressure"] = {{"some_share", -0.1}};
      },
      "/host_cpu_pressure/some_share", "");
}

// A host or session id is a name, not a payload: 100,000 letters are refused naming the field
// (issue 58), a plain id is kept.
TEST_F(gate_RunFiles, OverlongHostAndSessionIdsAreRefused) {
  json doc = good_run();
  doc["host_id"] = "e65a4e56bf01";
  doc["session_id"] = "cpu-amd-epyc-c2-20261206T143549";
  const RunRecord kept = load_run(write_text("ids/run.json", doc.dump()));
  EXPECT_EQ(kept.host_id, "e65a4e56bf01");
  EXPECT_EQ(kept.session_id, "cpu-amd-epyc-c2-20261206T143549");
  expect_error_after([](json& d) { d["host_id"] = std::string(100000, 'a'); }, "/host_id",
                     "an id of at most 128 bytes (it is 100000)");
  expect_error_after([](json& d) { d["session_id"] = std::string(129, 's'); }, "/session_id",
                     "an id of at most 128 bytes (it is 129)");
}

TEST_F(gate_RunFiles, LoadsDirectoryAndFile) {
  const auto run_dir = testing::write_run_dir(dir_, good_run());
  const RunRecord from_dir = load_run(run_dir);
  EXPECT_EQ(from_dir.run_id, "run-a");
  EXPECT_EQ(from_dir.platform, "cpu-test-2c");
  EXPECT_TRUE(from_dir.complete);
  ASSERT_EQ(from_dir.benchmarks.size(), 2u);
  EXPECT_EQ(from_dir.benchmarks[0].samples.time_us.size(), 3u);
  EXPECT_TRUE(from_dir.benchmarks[0].busbw_GBps.has_value());
  EXPECT_EQ(from_dir.fingerprint.versions.at("nccl"), "2.28.3");
  EXPECT_EQ(load_run(run_dir / "run.json").benchmarks.size(), 2u);
}

TEST_F(gate_RunFiles, CrashedRunReadsRecordsJsonlAndIsIncomplete) {
  const json run = good_run();
  const auto run_dir = dir_ / "cpu-test-2c" / "crashed-1";
  std::string lines = json{{"type", "header"}}.dump() + "\n";
  for (const json& b : run["benchmarks"]) lines += b.dump() + "\n";
  lines += "{\"type\": \"benchmark\", \"key\": \"cut";  // the crash cut the last line
  write_text("cpu-test-2c/crashed-1/records.jsonl", lines);
  const RunRecord r = load_run(run_dir);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.benchmarks.size(), 2u);
  EXPECT_EQ(r.platform, "cpu-test-2c");
  EXPECT_EQ(r.run_id, "crashed-1");
  EXPECT_NE(r.incomplete_reason.find("cut short"), std::string::npos) << r.incomplete_reason;
}

TEST_F(gate_RunFiles, CorruptLineInTheMiddleOfRecordsIsAnError) {
  write_text("p/r/records.jsonl", "{not json\n" + good_run()["benchmarks"][0].dump() + "\n");
  EXPECT_THROW(load_run(dir_ / "p" / "r"), InputError);
}

TEST_F(gate_RunFiles, EmptyDirectoryAndMissingPath) {
  std::filesystem::create_directories(dir_ / "empty");
  EXPECT_THROW(load_run(dir_ / "empty"), InputError);
  EXPECT_THROW(load_run(dir_ / "nope"), InputError);
}

TEST_F(gate_RunFiles, MalformedAndTruncatedJson) {
  expect_error(write_text("run.json", "{\"schema\": \"fabricgate.run/1\", "), "", "not valid JSON");
  expect_error(write_text("run.json", "NaN"), "", "not valid JSON");
}

TEST_F(gate_RunFiles, WrongSchemaAndDuplicateKeys) {
  expect_error_after([](json& d) { d["schema"] = "fabricgate.run/2"; }, "/schema",
                     "fabricgate.run/1");
  const std::string text = good_run().dump();
  expect_error(write_text("run.json", "{\"run_id\": \"x\", " + text.substr(1)), "",
               "duplicate object key");
}

TEST_F(gate_RunFiles, MissingFields) {
  expect_error_after([](json& d) { d.erase("launch"); }, "/launch", "missing");
  expect_error_after([](json& d) { d["benchmarks"][1].erase("bytes"); }, "/benchmarks/1/bytes",
                     "missing");
  expect_error_after([](json& d) { d["benchmarks"][0]["samples"].erase("time_us"); },
                     "/benchmarks/0/samples/time_us", "missing");
}

TEST_F(gate_RunFiles, NanLikeNegativeAndAbsurdValues) {
  expect_error_after([](json& d) { d["benchmarks"][0]["time_us"] = "NaN"; },
                     "/benchmarks/0/time_us", "a number");
  expect_error_after([](json& d) { d["benchmarks"][0]["samples"]["time_us"][1] = -3.0; },
                     "/benchmarks/0/samples/time_us/1", ">= 0");
  expect_error_after([](json& d) { d["benchmarks"][0]["time_us"] = 0; }, "/benchmarks/0/time_us",
                     "time > 0");
  expect_error_after([](json& d) { d["benchmarks"][0]["busbw_GBps"] = 5e5; },
                     "/benchmarks/0/busbw_GBps", "plausible rate");
  expect_error_after([](json& d) { d["benchmarks"][0]["samples"]["busbw_GBps"][0] = 1e6; },
                     "/benchmarks/0/samples/busbw_GBps/0", "plausible rate");
  expect_error_after([](json& d) { d["benchmarks"][0]["bytes"] = -1; }, "/benchmarks/0/bytes",
                     "size in bytes");
  expect_error_after([](json& d) { d["benchmarks"][0]["nranks"] = 0; }, "/benchmarks/0/nranks",
                     "integer in");
  expect_error_after([](json& d) { d["benchmarks"][0]["repetitions"] = 4; },
                     "/benchmarks/0/samples/time_us", "one sample per repetition");
  expect_error_after([](json& d) { d["benchmarks"][0]["status"] = "fine"; }, "/benchmarks/0/status",
                     "ok|skipped");
  expect_error_after(
      [](json& d) {
        d["benchmarks"][0]["notes"] = json::array({{{"id", "P01"}, {"level", "fatal"}}});
      },
      "/benchmarks/0/notes/0/level", "error|warn|note");
}

TEST_F(gate_RunFiles, UnsafeNamesAndDuplicateBenchmarkKeys) {
  expect_error_after([](json& d) { d["platform"] = "../../etc"; }, "/platform", "letters, digits");
  expect_error_after([](json& d) { d["run_id"] = "a/b"; }, "/run_id", "letters, digits");
  // The whole record twice (a key copied alone would also disagree with its record's bytes).
  expect_error_after([](json& d) { d["benchmarks"][1] = d["benchmarks"][0]; }, "/benchmarks/1/key",
                     "also at /benchmarks/0");
  expect_error_after([](json& d) { d["benchmarks"][0]["key"] = "coll/../x"; }, "/benchmarks/0/key",
                     "..");
}

TEST_F(gate_RunFiles, SkippedResultsNeedNoNumbers) {
  json doc = good_run();
  doc["benchmarks"][0] = {{"key", "coll/mpi/x/bytes:1"},
                          {"family", "coll"},
                          {"backend", "mpi"},
                          {"op", "x"},
                          {"bytes", 1},
                          {"nranks", 2},
                          {"status", "skipped"},
                          {"message", "no GPU"}};
  const RunRecord r = parse_run(doc, "mem");
  EXPECT_EQ(r.benchmarks[0].status, ResultStatus::skipped);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
