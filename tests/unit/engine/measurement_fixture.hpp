#pragma once
// Shared by the measurement-loop tests: a one-process communicator, a records file in a fresh
// folder per test, a reporter that prints nothing, and the records file read back.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/engine/measurement.hpp"
#include "core/json_file.hpp"

namespace fabricgate::bench::testing {

class SilentReporter final : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

// The test's name as one path component: a parameterised test's name holds a '/' ("Name/0"),
// which would make a nested directory whose parent TearDown never removes.
inline std::string flat_test_name() {
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::replace(name.begin(), name.end(), '/', '_');
  return name;
}

class MeasurementFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("fg-measure-" + std::to_string(::getpid()) + "-" + flat_test_name());
    std::filesystem::remove_all(dir_);
    writer_ = RecordWriter(dir_ / "records.jsonl");
  }
  void TearDown() override {
    benchmark::ClearRegisteredBenchmarks();
    std::filesystem::remove_all(dir_);
  }

  // Runs every registered benchmark without printing.
  static void run_registered() {
    SilentReporter silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  // Every line of records.jsonl, in order.
  std::vector<json> lines() const {
    std::vector<json> out;
    std::ifstream in(dir_ / "records.jsonl");
    for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
    return out;
  }

  std::filesystem::path dir_;
  SoloCommunicator comm_;
  RecordWriter writer_;
};

}  // namespace fabricgate::bench::testing
