// The measurement loop with a one-process communicator and scripted operations: records, agreed
// batch sizes, the warm-up note (P09), wrong data and skips.
#include <gtest/gtest.h>

#include "measurement_fixture.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

class ScriptedOp : public MeasuredOp {
 public:
  ScriptedOp(double first_s, double per_op_s, std::int64_t wrong)
      : first_(first_s), per_op_(per_op_s), wrong_(wrong) {}
  double run_batch(int count) override {
    batches.push_back(count);
    const bool first = calls_++ == 0;
    return (first ? first_ : 0.0) + per_op_ * (first ? count - 1 : count);
  }
  std::int64_t count_wrong() override { return wrong_; }
  std::vector<int> batches;

 private:
  double first_, per_op_;
  std::int64_t wrong_;
  int calls_ = 0;
};

class MeasurementTest : public testing::MeasurementFixture {
 protected:
  std::vector<json> run(MeasurePlan plan, OpFactory factory) {
    BenchEnv env{.comm = comm_, .writer = writer_, .collective_backend = {}};
    RecordTemplate t;
    t.record.key = "test/op/bytes:1000";
    t.record.bytes = 1000;
    t.bytes_for_rate = 1000;
    t.busbw_factor = 1.5;
    register_measurement(env, t, plan, std::move(factory));
    run_registered();
    std::vector<json> out;
    for (json& j : lines()) {
      if (j["type"] == "start") {
        started.push_back(j["key"]);
        continue;
      }
      out.push_back(std::move(j));
    }
    return out;
  }

  std::vector<std::string> started;  // "start" markers (what a hang or crash was doing)
};

TEST_F(MeasurementTest, WritesOneRecordWithOneSamplePerRepetition) {
  ScriptedOp* op = nullptr;
  MeasurePlan plan;
  plan.repetitions = 4;
  plan.warmup_ops = 3;
  plan.target_sample_seconds = 0.01;  // 10 ms at 1 ms/op → 10 ops per sample
  const auto records = run(plan, [&](std::string&) {
    auto p = std::make_unique<ScriptedOp>(0.001, 0.001, 0);
    op = p.get();
    return p;
  });
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(started, std::vector<std::string>{"test/op/bytes:1000"});  // marked before it ran
  const json& r = records[0];
  EXPECT_EQ(r["status"], "ok");
  EXPECT_EQ(r["samples"]["time_us"].size(), 4u);
  EXPECT_EQ(r["iterations"], 10);
  EXPECT_NEAR(r["time_us"].get<double>(), 1000.0, 1e-6);
  EXPECT_NEAR(r["algbw_GBps"].get<double>(), 1000.0 / 1e-3 / 1e9, 1e-12);
  EXPECT_NEAR(r["busbw_GBps"].get<double>(), 1.5 * 1000.0 / 1e-3 / 1e9, 1e-12);
  EXPECT_TRUE(r["notes"].empty());
}

TEST_F(MeasurementTest, SlowWarmupIsNoted) {
  MeasurePlan plan;
  plan.repetitions = 2;
  plan.warmup_ops = 2;
  plan.fixed_ops_per_sample = 5;
  // First op 100 ms, then 1 ms per op: warm-up mean 50.5 ms vs 1 ms median → P09 note.
  const auto records =
      run(plan, [](std::string&) { return std::make_unique<ScriptedOp>(0.1, 0.001, 0); });
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["iterations"], 5);
  ASSERT_EQ(records[0]["notes"].size(), 1u);
  EXPECT_EQ(records[0]["notes"][0]["id"], "P09");
  EXPECT_NEAR(records[0]["warmup_us"].get<double>(), 50500.0, 1e-6);
}

TEST_F(MeasurementTest, WrongDataEndsTheBenchmarkWithoutSamples) {
  MeasurePlan plan;
  plan.repetitions = 3;
  const auto records =
      run(plan, [](std::string&) { return std::make_unique<ScriptedOp>(0.001, 0.001, 7); });
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["status"], "wrong");
  EXPECT_EQ(records[0]["wrong_elements"], 7);
  EXPECT_FALSE(records[0].contains("samples"));
}

TEST_F(MeasurementTest, SkipCarriesTheReason) {
  MeasurePlan plan;
  plan.repetitions = 3;
  const auto records = run(plan, [](std::string& why) -> std::unique_ptr<MeasuredOp> {
    why = "no GPU here";
    return nullptr;
  });
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["status"], "skipped");
  EXPECT_EQ(records[0]["message"], "no GPU here");
}

TEST_F(MeasurementTest, FactoryExceptionIsAnError) {
  MeasurePlan plan;
  plan.repetitions = 2;
  const auto records = run(plan, [](std::string&) -> std::unique_ptr<MeasuredOp> {
    throw std::runtime_error("device fell off");
  });
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["status"], "error");
  EXPECT_EQ(records[0]["message"], "device fell off");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
