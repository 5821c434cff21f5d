// The collector on its own: labels switch, take() forgets, set_label between events re-targets.
#include <gtest/gtest.h>

#include "bench/capture/choice_collector.hpp"

namespace fabricgate::capture {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

CollectiveChoice ring_ll() {
  CollectiveChoice c;
  c.func = "AllReduce";
  c.datatype = "ncclFloat32";
  c.algo = "Ring";
  c.proto = "LL";
  c.count = 1;
  c.channels = 1;
  c.warps = 8;
  return c;
}

TEST(captureCollector, EventsBeforeAnyLabelGoToTheEmptyLabel) {
  ChoiceCollector collector;
  EXPECT_FALSE(collector.active());
  collector.record(ring_ll());
  EXPECT_EQ(collector.take("").events, 1u);
}

TEST(captureCollector, TakeOfCurrentLabelKeepsCollecting) {
  ChoiceCollector collector;
  collector.set_label("a");
  collector.record(ring_ll());
  EXPECT_EQ(collector.take("a").events, 1u);
  collector.record(ring_ll());  // still labelled "a": a new summary starts
  collector.record(ring_ll());
  EXPECT_EQ(collector.take("a").events, 2u);
  collector.set_label("b");
  EXPECT_EQ(collector.label(), "b");
  EXPECT_TRUE(collector.take("a").empty());
}

TEST(captureCollector, InitAndFinalizeAreCounted) {
  ChoiceCollector collector;
  collector.note_init(5);
  collector.note_init(5);
  EXPECT_TRUE(collector.active());
  EXPECT_EQ(collector.abi_version(), 5);
  EXPECT_EQ(collector.live_communicators(), 2);
  collector.note_finalize();
  EXPECT_EQ(collector.live_communicators(), 1);
  EXPECT_TRUE(collector.active());  // stays true: the run's capture path was the profiler
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::capture
