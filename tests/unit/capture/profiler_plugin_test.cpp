// The exported plugin tables called the way NCCL calls them, with synthetic descriptors on CPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>
#include <vector>

#include "bench/capture/profiler_plugin.hpp"

namespace fabricgate::capture {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace abi = nccl_abi;

abi::EventDescrV5 coll_v5(const char* algo, const char* proto, std::uint8_t channels) {
  abi::EventDescrV5 d{};
  d.type = abi::kEventColl;
  d.rank = 0;
  d.u.coll.func = "AllReduce";
  d.u.coll.datatype = "ncclFloat32";
  d.u.coll.count = 2;
  d.u.coll.n_channels = channels;
  d.u.coll.n_warps = 16;
  d.u.coll.algo = algo;
  d.u.coll.proto = proto;
  return d;
}

class captureProfiler : public ::testing::Test {
 protected:
  void SetUp() override { profiler().clear(); }
  void TearDown() override { profiler().clear(); }
};

TEST_F(captureProfiler, TablesAreNamedAndComplete) {
  for (const char* name : {ncclProfiler_v4.name, ncclProfiler_v5.name, ncclProfiler_v6.name})
    EXPECT_STREQ(name, "fabricgate");
  EXPECT_NE(ncclProfiler_v4.finalize, nullptr);
  EXPECT_NE(ncclProfiler_v5.record_event_state, nullptr);
  EXPECT_NE(ncclProfiler_v6.start_event, nullptr);
}

TEST_F(captureProfiler, V5LifecycleAggregatesPerLabel) {
  void* context = nullptr;
  int mask = -1;
  ASSERT_EQ(ncclProfiler_v5.init(&context, 0x1234, &mask, "world", 1, 2, 0, nullptr),
            abi::kSuccess);
  EXPECT_EQ(mask, static_cast<int>(abi::kEventColl));  // collective events only
  EXPECT_NE(context, nullptr);
  EXPECT_TRUE(profiler().active());
  EXPECT_GE(profiler().abi_version(), 4);

  profiler().set_label("coll/nccl/all_reduce/bytes:8");
  for (int i = 0; i < 3; ++i) {
    auto d = coll_v5("Ring", "LL", 1);
    void* handle = reinterpret_cast<void*>(1);
    ASSERT_EQ(ncclProfiler_v5.start_event(context, &handle, &d), abi::kSuccess);
    EXPECT_EQ(handle, nullptr);  // no per-event state: NCCL skips stop for null handles
    EXPECT_EQ(ncclProfiler_v5.stop_event(handle), abi::kSuccess);
  }
  // Group / API events arrive too (their masks include the collective bit); they are not counted.
  abi::EventDescrV5 group{};
  group.type = abi::kEventGroup;
  void* group_handle = nullptr;
  ASSERT_EQ(ncclProfiler_v5.start_event(context, &group_handle, &group), abi::kSuccess);
  EXPECT_EQ(ncclProfiler_v5.record_event_state(group_handle, 24, nullptr), abi::kSuccess);

  profiler().set_label("coll/nccl/all_reduce/bytes:4194304");
  auto big = coll_v5("RING", "SIMPLE", 24);  // NCCL 2.28.3 spelling, normalised
  void* handle = nullptr;
  ASSERT_EQ(ncclProfiler_v6.start_event(context, &handle, &big), abi::kSuccess);

  const ChoiceSummary small = profiler().take("coll/nccl/all_reduce/bytes:8");
  EXPECT_EQ(small.events, 3u);
  EXPECT_EQ(small.algo.at("Ring"), 3u);
  EXPECT_EQ(small.proto.at("LL"), 3u);
  EXPECT_EQ(small.channels.at("1"), 3u);
  EXPECT_EQ(small.warps.at("16"), 3u);
  EXPECT_EQ(small.funcs.at("AllReduce"), 3u);
  EXPECT_EQ(small.datatypes.at("ncclFloat32"), 3u);
  EXPECT_EQ(small.counts.at("2"), 3u);
  EXPECT_TRUE(profiler().take("coll/nccl/all_reduce/bytes:8").empty());  // taken once

  const ChoiceSummary large = profiler().take("coll/nccl/all_reduce/bytes:4194304");
  EXPECT_EQ(large.events, 1u);
  EXPECT_EQ(large.proto.at("Simple"), 1u);
  EXPECT_EQ(large.channels.at("24"), 1u);

  const int live = profiler().live_communicators();
  EXPECT_EQ(ncclProfiler_v5.finalize(context), abi::kSuccess);
  EXPECT_EQ(profiler().live_communicators(), live - 1);
}

TEST_F(captureProfiler, V4DescriptorLayout) {
  void* context = nullptr;
  int mask = 0;
  ASSERT_EQ(ncclProfiler_v4.init(&context, &mask, "world", 7, 1, 2, 1, nullptr), abi::kSuccess);
  EXPECT_EQ(mask, static_cast<int>(abi::kEventColl));
  abi::EventDescrV4 d{};
  d.type = static_cast<std::uint8_t>(abi::kEventColl);
  d.u.coll.func = "Broadcast";
  d.u.coll.datatype = "ncclInt8";
  d.u.coll.algo = "Tree";
  d.u.coll.proto = nullptr;  // tolerated: counted as "?"
  d.u.coll.n_channels = 2;
  profiler().set_label("v4");
  void* handle = nullptr;
  ASSERT_EQ(ncclProfiler_v4.start_event(context, &handle, &d), abi::kSuccess);
  const ChoiceSummary s = profiler().take("v4");
  EXPECT_EQ(s.algo.at("Tree"), 1u);
  EXPECT_EQ(s.proto.at("?"), 1u);
  EXPECT_EQ(ncclProfiler_v4.finalize(context), abi::kSuccess);
}

TEST_F(captureProfiler, InvalidArgumentsAreRejectedNotCrashed) {
  int mask = 0;
  void* context = nullptr;
  EXPECT_EQ(ncclProfiler_v5.init(nullptr, 0, &mask, nullptr, 1, 1, 0, nullptr),
            abi::kInvalidArgument);
  EXPECT_EQ(ncclProfiler_v5.init(&context, 0, nullptr, nullptr, 1, 1, 0, nullptr),
            abi::kInvalidArgument);
  EXPECT_EQ(ncclProfiler_v5.start_event(nullptr, nullptr, nullptr), abi::kSuccess);
  EXPECT_EQ(ncclProfiler_v5.finalize(nullptr), abi::kSuccess);
}

TEST_F(captureProfiler, ConcurrentEventsAreCountedExactly) {
  void* context = nullptr;
  int mask = 0;
  ASSERT_EQ(ncclProfiler_v5.init(&context, 1, &mask, "c", 1, 8, 0, nullptr), abi::kSuccess);
  profiler().set_label("concurrent");
  constexpr int kThreads = 8;
  constexpr int kEvents = 5000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, context] {
      auto d = coll_v5(t % 2 == 0 ? "Ring" : "Tree", "LL", static_cast<std::uint8_t>(t + 1));
      for (int i = 0; i < kEvents; ++i) {
        void* handle = nullptr;
        ncclProfiler_v5.start_event(context, &handle, &d);
      }
    });
  }
  for (auto& th : threads) th.join();
  const ChoiceSummary s = profiler().take("concurrent");
  EXPECT_EQ(s.events, std::uint64_t{kThreads} * kEvents);
  EXPECT_EQ(s.algo.at("Ring"), std::uint64_t{kThreads / 2} * kEvents);
  EXPECT_EQ(s.algo.at("Tree"), std::uint64_t{kThreads / 2} * kEvents);
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(s.channels.at(std::to_string(t + 1)), std::uint64_t{kEvents});
  ncclProfiler_v5.finalize(context);
}

TEST(captureProfilerEnv, StaticPluginOnlyWhenUnset) {
  ::unsetenv("NCCL_PROFILER_PLUGIN");
  EXPECT_TRUE(enable_static_profiler_if_unset());
  EXPECT_STREQ(std::getenv("NCCL_PROFILER_PLUGIN"), "STATIC_PLUGIN");
  ::setenv("NCCL_PROFILER_PLUGIN", "libmy-profiler.so", 1);
  EXPECT_FALSE(enable_static_profiler_if_unset());
  EXPECT_STREQ(std::getenv("NCCL_PROFILER_PLUGIN"), "libmy-profiler.so");
  ::setenv("NCCL_PROFILER_PLUGIN", "none", 1);
  EXPECT_FALSE(enable_static_profiler_if_unset());
  ::unsetenv("NCCL_PROFILER_PLUGIN");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::capture
