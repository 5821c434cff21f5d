// The measurement loop's hang handling with a one-process communicator: an operation
// that misses its deadline ends the benchmark with a message naming it, is aborted, and every later
// benchmark is skipped; the deadline handed to the operation comes from the suite's "timeout_s".
#include <gtest/gtest.h>

#include "bench/engine/family.hpp"
#include "core/errors.hpp"
#include "measurement_fixture.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

// Hangs in batch number `hang_at` (0 = the correctness batch): reports hung() as a backend does
// after its deadline poll gave up.
class HangingOp final : public MeasuredOp {
 public:
  HangingOp(int hang_at, bool* aborted, std::chrono::steady_clock::time_point* deadline)
      : hang_at_(hang_at), aborted_(aborted), deadline_(deadline) {}
  double run_batch(int count) override {
    if (batches_++ == hang_at_) {
      hung_ = true;
      error_ = "operations still running at the deadline";
    }
    return 1e-6 * count;
  }
  std::string failure() const override { return error_; }
  bool hung() const override { return hung_; }
  void abort() override { *aborted_ = true; }
  void set_deadline(std::chrono::steady_clock::time_point d) override { *deadline_ = d; }

 private:
  int hang_at_;
  bool* aborted_;
  std::chrono::steady_clock::time_point* deadline_;
  int batches_ = 0;
  bool hung_ = false;
  std::string error_;
};

class QuickOp final : public MeasuredOp {
 public:
  double run_batch(int count) override { return 1e-6 * count; }
};

class HangMeasurementTest : public testing::MeasurementFixture {
 protected:
  void add(BenchEnv& env, const std::string& key, MeasurePlan plan, OpFactory factory) {
    RecordTemplate t;
    t.record.key = key;
    t.record.backend = "test";
    register_measurement(env, t, plan, std::move(factory));
  }
  std::vector<json> records() const {
    std::vector<json> out;
    for (const json& j : lines()) {
      if (j["type"] == "benchmark") out.push_back(j);
    }
    return out;
  }
};

class HangAt : public HangMeasurementTest, public ::testing::WithParamInterface<int> {};

TEST_P(HangAt, HangEndsTheRunNamingTheBenchmark) {
  BenchEnv env{.comm = comm_, .writer = writer_, .collective_backend = {}};
  std::string watchdog_key;
  env.on_local_hang = [&](const std::string& key, double) { watchdog_key = key; };
  MeasurePlan plan;
  plan.repetitions = 3;
  plan.warmup_ops = 3;
  plan.fixed_ops_per_sample = 4;
  plan.timeout_seconds = 42;
  bool aborted = false;
  std::chrono::steady_clock::time_point deadline{};
  const auto before = std::chrono::steady_clock::now();
  add(env, "t/first", plan, [](std::string&) { return std::make_unique<QuickOp>(); });
  add(env, "t/hangs", plan,
      [&](std::string&) { return std::make_unique<HangingOp>(GetParam(), &aborted, &deadline); });
  add(env, "t/later", plan, [](std::string&) -> std::unique_ptr<MeasuredOp> {
    ADD_FAILURE() << "a benchmark after a hang must not be set up";
    return std::make_unique<QuickOp>();
  });
  run_registered();

  EXPECT_EQ(env.hung_benchmark, "t/hangs");
  EXPECT_TRUE(aborted);
  EXPECT_EQ(watchdog_key, "t/hangs");
  // The deadline is the benchmark's start + timeout_s.
  EXPECT_GE(deadline, before + std::chrono::seconds(42));
  EXPECT_LT(deadline, std::chrono::steady_clock::now() + std::chrono::seconds(42));
  const auto recs = records();
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0]["status"], "ok");
  EXPECT_EQ(recs[1]["status"], "error");
  const std::string msg = recs[1]["message"];
  EXPECT_EQ(msg.rfind("hung: t/hangs did not complete within its 42 s timeout", 0), 0u) << msg;
  EXPECT_NE(msg.find("operations still running at the deadline"), std::string::npos) << msg;
  EXPECT_NE(msg.find("test aborted"), std::string::npos) << msg;
  EXPECT_EQ(recs[2]["status"], "skipped");
  EXPECT_EQ(recs[2]["message"], "not run: t/hangs hung earlier in this run");
}

// 0: the correctness batch, 1: the warm-up, 2: the first sample, 3: a later sample.
INSTANTIATE_TEST_SUITE_P(Batch, HangAt, ::testing::Values(0, 1, 2, 3));

TEST_F(HangMeasurementTest, AnOrdinaryFailureIsNotAHang) {
  class FailingOp final : public MeasuredOp {
   public:
    double run_batch(int) override { return 0; }
    std::string failure() const override { return "CUDA error: an illegal memory access"; }
  };
  BenchEnv env{.comm = comm_, .writer = writer_, .collective_backend = {}};
  MeasurePlan plan;
  plan.repetitions = 2;
  add(env, "t/fails", plan, [](std::string&) { return std::make_unique<FailingOp>(); });
  add(env, "t/next", plan, [](std::string&) { return std::make_unique<QuickOp>(); });
  run_registered();
  EXPECT_TRUE(env.hung_benchmark.empty());
  const auto recs = records();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0]["status"], "error");
  EXPECT_EQ(recs[0]["message"], "CUDA error: an illegal memory access");
  EXPECT_EQ(recs[1]["status"], "ok");
}

TEST(ReadPlan, TimeoutSecondsFromTheSuiteAndItsBounds) {
  const json doc = {
      {"defaults", {{"timeout_s", 30}}},
      {"benchmarks", json::array({{{"timeout_s", 2.5}}, json::object(), {{"timeout_s", 0}}})}};
  const JsonReader rd(doc, "suite.json");
  const MeasurePlan defaults = read_plan(rd, "/defaults", MeasurePlan{});
  EXPECT_DOUBLE_EQ(MeasurePlan{}.timeout_seconds, 600);
  EXPECT_DOUBLE_EQ(defaults.timeout_seconds, 30);
  EXPECT_DOUBLE_EQ(read_plan(rd, "/benchmarks/0", defaults).timeout_seconds, 2.5);
  EXPECT_DOUBLE_EQ(read_plan(rd, "/benchmarks/1", defaults).timeout_seconds, 30);
  try {
    read_plan(rd, "/benchmarks/2", defaults);
    FAIL() << "timeout_s 0 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/benchmarks/2/timeout_s"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("seconds in (0, 86400]"), std::string::npos) << e.what();
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
