// What a p2p / hostcopy suite entry expands to: pairs, keys, transfers, rate bytes, spec scope.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "bench/fixtures/p2p/copy_plan.hpp"

namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fb = fabricgate::bench;

namespace {

std::vector<int> first(int n) {
  std::vector<int> g;
  for (int i = 0; i < n; ++i) g.push_back(i);
  return g;
}

const fb::CopyCase& find(const std::vector<fb::CopyCase>& cases, const std::string& key) {
  const auto it =
      std::find_if(cases.begin(), cases.end(), [&](const fb::CopyCase& c) { return c.key == key; });
  if (it == cases.end()) throw std::runtime_error("no case " + key);
  return *it;
}

bool same(const fb::Transfer& a, const fb::Transfer& b) {
  return a.src == b.src && a.dst == b.dst && a.exec == b.exec;
}

}  // namespace

TEST(P2pPlan, OrderedPairsAreNTimesNMinusOne) {
  for (int n = 0; n <= 8; ++n) {
    const auto pairs = fb::ordered_pairs(first(n));
    EXPECT_EQ(pairs.size(), static_cast<std::size_t>(n * std::max(n - 1, 0)));
    std::set<std::pair<int, int>> unique(pairs.begin(), pairs.end());
    EXPECT_EQ(unique.size(), pairs.size());
    for (const auto& [a, b] : pairs) EXPECT_NE(a, b);
  }
  EXPECT_EQ(fb::ordered_pairs({3, 5}), (std::vector<std::pair<int, int>>{{3, 5}, {5, 3}}));
}

TEST(P2pPlan, DefaultCopyCasesCoverEngineDirectionModeAndEveryOrderedPair) {
  fb::P2pOptions o;
  o.gpus = first(4);
  o.sizes = {1 << 30};
  const auto cases = fb::p2p_cases(o);
  EXPECT_EQ(cases.size(), 2u * 2u * 2u * 12u);  // engines × directions × modes × 4·3 pairs
  std::set<std::string> keys;
  for (const auto& c : cases) keys.insert(c.key);
  EXPECT_EQ(keys.size(), cases.size());
}

TEST(P2pPlan, KeysAndTransfersOfOnePair) {
  fb::P2pOptions o;
  o.gpus = first(2);
  o.sizes = {1073741824};
  const auto cases = fb::p2p_cases(o);

  const auto& w = find(cases, "p2p/ce/write/uni/src:0/dst:1/bytes:1073741824");
  ASSERT_EQ(w.transfers.size(), 1u);
  EXPECT_TRUE(same(w.transfers[0], {0, 1, 0}));  // the source pushes
  EXPECT_EQ(w.family, "p2p");
  EXPECT_EQ(w.op, "copy");
  EXPECT_EQ(w.params["engine"], "ce");
  EXPECT_EQ(w.params["direction"], "write");
  EXPECT_EQ(w.params["mode"], "uni");
  EXPECT_EQ(w.params["src"], 0);
  EXPECT_EQ(w.params["dst"], 1);
  EXPECT_DOUBLE_EQ(w.bytes_for_rate, 1073741824.0);
  EXPECT_EQ(w.spec_scope, fb::SpecScope::pair);
  EXPECT_EQ(w.spec_direction, fabricgate::SpecDirection::unidirectional);
  EXPECT_EQ(w.gpus, 2);

  const auto& r = find(cases, "p2p/sm/read/uni/src:0/dst:1/bytes:1073741824");
  EXPECT_EQ(r.engine, fb::CopyEngine::sm);
  EXPECT_TRUE(same(r.transfers[0], {0, 1, 1}));  // the destination pulls

  const auto& bi = find(cases, "p2p/ce/write/bi/src:1/dst:0/bytes:1073741824");
  ASSERT_EQ(bi.transfers.size(), 2u);
  EXPECT_TRUE(same(bi.transfers[0], {1, 0, 1}));
  EXPECT_TRUE(same(bi.transfers[1], {0, 1, 0}));
  EXPECT_DOUBLE_EQ(bi.bytes_for_rate, 2.0 * 1073741824);  // total bytes / time
  EXPECT_EQ(bi.spec_direction, fabricgate::SpecDirection::bidirectional);

  const auto& bir = find(cases, "p2p/sm/read/bi/src:0/dst:1/bytes:1073741824");
  EXPECT_TRUE(same(bir.transfers[0], {0, 1, 1}));
  EXPECT_TRUE(same(bir.transfers[1], {1, 0, 0}));
}

TEST(P2pPlan, OneToAllAndAllToOne) {
  fb::P2pOptions o;
  o.ops = {"one_to_all", "all_to_one"};
  o.engines = {"ce"};
  o.gpus = first(4);
  o.sizes = {256};
  const auto cases = fb::p2p_cases(o);
  EXPECT_EQ(cases.size(), 2u * 2u * 4u);  // two ops × write/read × each GPU; uni only
  const auto& out = find(cases, "p2p/ce/write/uni/src:2/dst:all/bytes:256");
  ASSERT_EQ(out.transfers.size(), 3u);
  for (const auto& t : out.transfers) {
    EXPECT_EQ(t.src, 2);
    EXPECT_EQ(t.exec, 2);
    EXPECT_NE(t.dst, 2);
  }
  EXPECT_DOUBLE_EQ(out.bytes_for_rate, 3.0 * 256);
  EXPECT_EQ(out.params["dst"], "all");
  EXPECT_EQ(out.spec_scope, fb::SpecScope::single_gpu);
  EXPECT_EQ(out.spec_a, 2);
  EXPECT_EQ(out.gpus, 4);
  const auto& in = find(cases, "p2p/ce/read/uni/src:all/dst:0/bytes:256");
  ASSERT_EQ(in.transfers.size(), 3u);
  for (const auto& t : in.transfers) {
    EXPECT_EQ(t.dst, 0);
    EXPECT_EQ(t.exec, 0);  // read: GPU 0 pulls from each peer
  }
}

TEST(P2pPlan, LocalCopyAndLatency) {
  fb::P2pOptions o;
  o.ops = {"local_copy", "latency"};
  o.gpus = first(2);
  o.sizes = {8, 4096};
  const auto cases = fb::p2p_cases(o);
  const auto& local = find(cases, "p2p/sm/local/gpu:1/bytes:4096");
  EXPECT_TRUE(same(local.transfers[0], {1, 1, 1}));
  EXPECT_EQ(local.spec_scope, fb::SpecScope::none);

  const auto& ce = find(cases, "p2p/ce/latency/src:0/dst:1/bytes:8");
  EXPECT_DOUBLE_EQ(ce.bytes_for_rate, 0.0);  // a time, not a rate
  EXPECT_FALSE(ce.pointer_chase);
  find(cases, "p2p/ce/latency/src:0/dst:1/bytes:4096");
  find(cases, "p2p/ce/latency/src:1/dst:1/bytes:8");

  const auto& sm = find(cases, "p2p/sm/latency/src:1/dst:0/bytes:8");
  EXPECT_TRUE(sm.pointer_chase);
  EXPECT_EQ(sm.transfers[0].src, 1);  // GPU 1 loads through GPU 0's memory
  EXPECT_EQ(sm.transfers[0].dst, 0);
  // SM latency is one figure per pair, not per size: 2 pairs + 2 local.
  EXPECT_EQ(std::count_if(cases.begin(), cases.end(),
                          [](const fb::CopyCase& c) { return c.pointer_chase; }),
            4);
}

TEST(P2pPlan, HostCopyKeysTransfersAndDirections) {
  fb::HostCopyOptions o;
  o.memory = {"pinned", "pageable"};
  o.gpus = first(2);
  o.sizes = {1073741824};
  const auto cases = fb::hostcopy_cases(o);
  EXPECT_EQ(cases.size(), 3u * 2u * 2u);
  const auto& h2d = find(cases, "hostcopy/cuda/h2d/pinned/gpu:0/bytes:1073741824");
  EXPECT_EQ(h2d.family, "hostcopy");
  ASSERT_EQ(h2d.transfers.size(), 1u);
  EXPECT_TRUE(same(h2d.transfers[0], {fb::kHostMemory, 0, 0}));
  EXPECT_EQ(h2d.params["memory"], "pinned");
  EXPECT_EQ(h2d.spec_scope, fb::SpecScope::host_link);
  const auto& d2h = find(cases, "hostcopy/cuda/d2h/pageable/gpu:1/bytes:1073741824");
  EXPECT_TRUE(same(d2h.transfers[0], {1, fb::kHostMemory, 1}));
  EXPECT_EQ(d2h.memory, fb::HostMemory::pageable);
  const auto& bi = find(cases, "hostcopy/cuda/bi/pinned/gpu:1/bytes:1073741824");
  EXPECT_EQ(bi.transfers.size(), 2u);
  EXPECT_DOUBLE_EQ(bi.bytes_for_rate, 2.0 * 1073741824);
  EXPECT_EQ(bi.spec_direction, fabricgate::SpecDirection::bidirectional);
}

TEST(P2pPlan, NamesAreValidated) {
  EXPECT_TRUE(fb::valid_p2p_op("one_to_all"));
  EXPECT_FALSE(fb::valid_p2p_op("all_to_all"));
  EXPECT_TRUE(fb::valid_engine("sm"));
  EXPECT_FALSE(fb::valid_engine("dma"));
  EXPECT_FALSE(fb::valid_direction("push"));
  EXPECT_FALSE(fb::valid_mode("duplex"));
  EXPECT_TRUE(fb::valid_host_direction("bi"));
  EXPECT_FALSE(fb::valid_host_memory("managed"));
}
}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
