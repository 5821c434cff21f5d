// P10: busbw against the NVLink spec: explained above it, called wire efficiency only for rings.
#include <gtest/gtest.h>

#include "harness/gate/wire_notes.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

struct Fixture {
  RunRecord run;
  verdict::Comparison c;
  void add(const std::string& key, std::uint64_t bytes, double busbw,
           std::map<std::string, long long> algo) {
    BenchmarkResult r;
    r.key = key;
    r.choice = Choice{};
    r.choice->algo = algo;
    run.benchmarks.push_back(r);
    verdict::KeyComparison k;
    k.key = key;
    k.family = "coll";
    k.backend = "nccl";
    k.bytes = bytes;
    k.busbw_now = busbw;
    c.keys.push_back(k);
  }
};

TEST(gate_WireSpec, AboveSpecIsExplainedRingBelowIsEfficiency) {
  Fixture f;
  f.run.launch.nodes = 1;
  f.run.fingerprint.nvlink_GBps_per_direction = 450;
  f.add("a", 1u << 30, 480, {{"NVLS", 10}});
  f.add("b", 1u << 30, 327, {{"Ring", 10}});
  f.add("c", 1u << 30, 300, {{"Tree", 10}});  // below spec, not a ring: no efficiency claim
  add_wire_spec_notes(f.run, f.c);
  ASSERT_EQ(f.c.keys[0].notes.size(), 1u);
  EXPECT_NE(f.c.keys[0].notes[0].text.find("with NVLS"), std::string::npos)
      << f.c.keys[0].notes[0].text;
  ASSERT_EQ(f.c.keys[1].notes.size(), 1u);
  EXPECT_NE(f.c.keys[1].notes[0].text.find("72.7 %"), std::string::npos)
      << f.c.keys[1].notes[0].text;
  EXPECT_TRUE(f.c.keys[2].notes.empty());
}

TEST(gate_WireSpec, NothingWithoutNvlinkOrAcrossNodes) {
  Fixture f;
  f.run.launch.nodes = 1;
  f.add("a", 1u << 30, 480, {{"Ring", 10}});
  add_wire_spec_notes(f.run, f.c);  // no NVLink spec in the fingerprint
  EXPECT_TRUE(f.c.keys[0].notes.empty());
  f.run.fingerprint.nvlink_GBps_per_direction = 450;
  f.run.launch.nodes = 2;
  add_wire_spec_notes(f.run, f.c);
  EXPECT_TRUE(f.c.keys[0].notes.empty());
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
