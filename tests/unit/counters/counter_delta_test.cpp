// Deltas by hand: a plain increase, a 16-bit PortCounter at its limit, a 32-bit hw counter that
// wrapped, a reset, and devices that vanish or appear between the two snapshots.
#include <gtest/gtest.h>

#include "harness/model/counters/counter_delta.hpp"

namespace fabricgate::counters {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(counters_delta, plain_increase_is_end_minus_start) {
  const CounterDelta d = counter_delta("x", {5, Overflow::wraps, 64}, {12, Overflow::wraps, 64});
  EXPECT_EQ(d.delta, 7U);
  EXPECT_EQ(d.note, "");
}

TEST(counters_delta, saturated_16_bit_counter_is_a_lower_bound) {
  // symbol_error is 16 bits: 65530 -> 65535 is +5 at least (it stops at 2^16 - 1).
  const CounterDelta d = counter_delta("symbol_error", {65530, Overflow::saturates, 16},
                                       {65535, Overflow::saturates, 16});
  EXPECT_EQ(d.delta, 5U);
  EXPECT_EQ(d.note, "saturated at 65535: at least 5");
}

TEST(counters_delta, counter_saturated_before_the_launch_says_the_change_is_unknown) {
  const CounterDelta d =
      counter_delta("link_downed", {255, Overflow::saturates, 8}, {255, Overflow::saturates, 8});
  EXPECT_EQ(d.delta, 0U);
  EXPECT_NE(d.note.find("since before the launch"), std::string::npos);
}

TEST(counters_delta, wrapped_32_bit_counter_counts_through_zero) {
  // 4294967290 -> 3: 5 steps to 2^32 - 1, one to 0, 3 more = 9.
  const CounterDelta d = counter_delta("rnr_nak_retry_err", {4294967290ULL, Overflow::wraps, 32},
                                       {3, Overflow::wraps, 32});
  EXPECT_EQ(d.delta, 9U);
  EXPECT_EQ(d.note, "wrapped at 2^32 (one wrap assumed)");
}

TEST(counters_delta, going_back_on_a_saturating_or_64_bit_counter_is_a_reset) {
  const CounterDelta sat =
      counter_delta("link_downed", {10, Overflow::saturates, 8}, {2, Overflow::saturates, 8});
  EXPECT_EQ(sat.delta, 2U);
  EXPECT_NE(sat.note.find("went back from 10 to 2"), std::string::npos);
  const CounterDelta wide =
      counter_delta("energy_mj", {100, Overflow::wraps, 64}, {7, Overflow::wraps, 64});
  EXPECT_EQ(wide.delta, 7U);
  EXPECT_NE(wide.note.find("reset"), std::string::npos);
}

DeviceSample gpu(const std::string& device, std::uint64_t replay) {
  DeviceSample s;
  s.kind = "gpu";
  s.device = device;
  s.identity = "GPU-" + device;
  s.counters["pcie_replay"] = {replay, Overflow::wraps, 32};
  return s;
}

TEST(counters_delta, vanished_and_appearing_devices_are_named_not_dropped) {
  const std::vector<DeviceSample> start = {gpu("GPU 0", 4), gpu("GPU 1", 9)};
  DeviceSample late = gpu("GPU 2", 1);
  DeviceSample end0 = gpu("GPU 0", 6);
  end0.gauges["sm_clock_mhz"] = 1980;
  const std::vector<DeviceCounters> d = device_deltas(start, {end0, late});
  ASSERT_EQ(d.size(), 3U);
  EXPECT_EQ(d[0].device, "GPU 0");
  EXPECT_FALSE(d[0].vanished);
  ASSERT_NE(d[0].counter("pcie_replay"), nullptr);
  EXPECT_EQ(d[0].counter("pcie_replay")->delta, 2U);
  ASSERT_NE(d[0].gauge("sm_clock_mhz"), nullptr);
  EXPECT_FALSE(d[0].gauge("sm_clock_mhz")->start.has_value());
  EXPECT_EQ(*d[0].gauge("sm_clock_mhz")->end, 1980);
  EXPECT_EQ(d[1].device, "GPU 1");
  EXPECT_TRUE(d[1].vanished);
  EXPECT_TRUE(d[1].counters.empty());
  EXPECT_EQ(d[2].device, "GPU 2");
  EXPECT_FALSE(d[2].vanished);
  EXPECT_TRUE(d[2].counters.empty());
  ASSERT_FALSE(d[2].unread.empty());
  EXPECT_NE(d[2].unread.back().reason.find("appeared"), std::string::npos);
}

TEST(counters_delta, counter_read_at_one_end_only_is_unread_with_the_reason) {
  DeviceSample a = gpu("GPU 0", 1);
  a.counters["energy_mj"] = {10, Overflow::wraps, 64};
  const DeviceSample b = gpu("GPU 0", 1);
  const std::vector<DeviceCounters> d = device_deltas({a}, {b});
  ASSERT_EQ(d.size(), 1U);
  EXPECT_EQ(d[0].counter("energy_mj"), nullptr);
  ASSERT_EQ(d[0].unread.size(), 1U);
  EXPECT_EQ(d[0].unread[0].what, "energy_mj");
  EXPECT_EQ(d[0].unread[0].reason, "read at the start, not at the end");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::counters
