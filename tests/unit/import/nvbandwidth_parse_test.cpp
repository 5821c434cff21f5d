// The nvbandwidth reader and its key mapping on a hand-written file in nvbandwidth 0.8's -j format
// (tests/data/import/README.md); its figures are format examples, not measurements.
#include <gtest/gtest.h>

#include <set>

#include "core/errors.hpp"
#include "harness/import/imported_nvbandwidth_run.hpp"
#include "harness/import/source_text.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::import {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

const std::string kFile =
    std::string(FABRICGATE_SOURCE_DIR) + "/tests/data/import/nvbandwidth-2gpu-handwritten.json";

RunRecord imported(const std::string& text) {
  const NvbandwidthOutput o = parse_nvbandwidth_json(text, "nvb.json");
  const ImportContext ctx{"p", "2026-12-01T09:00:00Z", "20261201T090000Z", "test"};
  return parse_run(build_nvbandwidth_run({o}, {}, 512ULL << 20, ctx).run, "imported");
}

const BenchmarkResult* find(const RunRecord& run, const std::string& key) {
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.key == key) return &b;
  }
  return nullptr;
}

TEST(import_Nvbandwidth, TestcasesBecomeTheP2pSuiteKeys) {
  const RunRecord run = imported(read_source_file(kFile));
  const BenchmarkResult* h2d = find(run, "hostcopy/cuda/h2d/pinned/gpu:1/bytes:536870912");
  ASSERT_TRUE(h2d);
  EXPECT_DOUBLE_EQ(h2d->algbw_GBps, 51.5);
  EXPECT_NEAR(h2d->time_us, 536870912.0 / 51.5 / 1e3, 1e-9);
  EXPECT_EQ(h2d->params["source_testcase"], "host_to_device_memcpy_ce");
  // write: row is the source; read: the row GPU pulls from the column GPU.
  const BenchmarkResult* write = find(run, "p2p/ce/write/uni/src:1/dst:0/bytes:536870912");
  ASSERT_TRUE(write);
  EXPECT_DOUBLE_EQ(write->algbw_GBps, 391.75);
  const BenchmarkResult* read = find(run, "p2p/ce/read/uni/src:0/dst:1/bytes:536870912");
  ASSERT_TRUE(read);
  EXPECT_DOUBLE_EQ(read->algbw_GBps, 381.5);
  EXPECT_EQ(read->gpus_per_process, 2);
  // bidirectional: the total matrix (last of the three appended), both directions' bytes.
  const BenchmarkResult* bi = find(run, "p2p/ce/write/bi/src:0/dst:1/bytes:536870912");
  ASSERT_TRUE(bi);
  EXPECT_DOUBLE_EQ(bi->algbw_GBps, 742.0);
  EXPECT_NEAR(bi->time_us, 2 * 536870912.0 / 742.0 / 1e3, 1e-9);
  // a failed testcase names its keys as errors; latency and waived testcases are not imported.
  const BenchmarkResult* failed =
      find(run, "hostcopy/cuda/d2h/pinned/gpu:0/bytes:536870912/engine:sm");
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->status, ResultStatus::error);
  EXPECT_EQ(run.benchmarks.size(), 12u);
  EXPECT_EQ(run.launch.nranks, 1);
  EXPECT_EQ(run.metadata.at("buffer_bytes"), "536870912");
}

TEST(import_Nvbandwidth, PartialAndMalformedFilesAreRefused) {
  const std::string good = read_source_file(kFile);
  auto error_of = [](const std::string& text) {
    try {
      imported(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  std::string running = good;
  running.replace(running.find("\"Waived\""), 8, "\"Running\"");
  EXPECT_NE(error_of(running).find("/nvbandwidth/testcases/7/status"), std::string::npos)
      << error_of(running);
  std::string short_row = good;
  short_row.replace(short_row.find("[ \"50.5\", \"51.5\" ]"), 18, "[ \"50.5\" ]");
  EXPECT_NE(error_of(short_row).find("one column per GPU (2), found 1"), std::string::npos)
      << error_of(short_row);
  EXPECT_NE(error_of(good.substr(0, good.size() / 2)).find("not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("{\"other\": 1}").find("/nvbandwidth"), std::string::npos);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::import
