// Ceilings per tier, each figure computed by hand from the published per-lane / per-link rates in
// core/spec_table.cpp (P07 direction, P08 decimal GB/s, P16 PCIe, P17 NVLink aggregates).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/roofline/ceiling.hpp"
#include "harness/roofline/hardware_facts.hpp"
#include "harness/roofline/judge.hpp"
#include "harness/roofline/policy.hpp"

namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fr = fabricgate::roofline;
using fabricgate::BenchmarkResult;
using nlohmann::json;

namespace {

json gpu(int index, int cur_gen, int cur_width, int max_gen, int max_width, int nvlinks) {
  return {{"index", index},
          {"name", "NVIDIA H200"},
          {"architecture", 9},
          {"pcie",
           {{"current_gen", cur_gen},
            {"current_width", cur_width},
            {"max_gen", max_gen},
            {"max_width", max_width}}},
          {"nvlink", {{"active_links", nvlinks}, {"generation", nvlinks > 0 ? json(4) : json()}}}};
}

// Two H200 joined by `pair_links` NVLinks (NV18 on an HGX board), Gen5 x16 each.
json two_gpus(int pair_links, int links_gpu0 = 18) {
  return {{"gpus",
           {{"devices",
             {gpu(0, 5, 16, 5, 16, links_gpu0), gpu(1, 5, 16, 5, 16, pair_links > 0 ? 18 : 0)}},
            {"topology", {{"nvlinks", {{0, pair_links}, {pair_links, 0}}}}}}}};
}

BenchmarkResult result(const std::string& family, const std::string& op, json params,
                       std::uint64_t bytes, double algbw) {
  BenchmarkResult r;
  r.key = family + "/" + op + "/" + params.dump() + "/" + std::to_string(bytes);
  r.family = family;
  r.backend = family == "coll" ? "nccl" : "cuda";
  r.op = op;
  r.params = std::move(params);
  r.bytes = bytes;
  r.algbw_GBps = algbw;
  r.repetitions = 5;
  return r;
}

BenchmarkResult host_copy(const std::string& direction, const std::string& memory, double algbw) {
  return result("hostcopy", "copy",
                {{"direction", direction},
                 {"gpu", 0},
                 {"memory", memory},
                 {"mode", direction == "bi" ? "bi" : "uni"}},
                1ull << 30, algbw);
}

BenchmarkResult collective(double busbw, int nranks, const std::string& algo) {
  BenchmarkResult r = result("coll", "all_reduce", {{"dtype", "float32"}}, 1ull << 30, busbw);
  r.busbw_GBps = busbw;
  r.nranks = nranks;
  fabricgate::Choice choice;
  choice.algo[algo] = 10;
  r.choice = choice;
  return r;
}

const fr::RooflinePolicy& policy() {
  static const fr::RooflinePolicy p =
      fr::load_roofline_policy(std::string(FABRICGATE_SOURCE_DIR) + "/policies/roofline.json");
  return p;
}

fr::RooflineFinding judge(const BenchmarkResult& r, const json& fingerprint,
                          fr::RunShape shape = {}) {
  fabricgate::RunRecord run;
  run.scenario = "default";
  run.launch.nodes = shape.nodes;
  run.launch.nodes_emulated = shape.nodes_emulated;
  run.launch.gpus_per_node = shape.gpus_per_node;
  run.capture.network = shape.network;
  run.capture.gdrdma = shape.gdrdma;
  run.fingerprint.document = fingerprint;
  run.benchmarks.push_back(r);
  const auto findings = fr::judge_keys(run, policy());
  EXPECT_EQ(findings.size(), 1u);
  return findings.empty() ? fr::RooflineFinding{} : findings.front();
}

}  // namespace

TEST(RooflineTier, PinnedHostCopyAgainstPcieGen5x16PerDirection) {
  // Gen5: 3.938 GB/s per lane per direction x 16 lanes = 63.008 GB/s.
  // 55.33 / 63.008 = 0.8781 -> 87.8 %, above the 75 % floor for >= 64 MiB.
  const auto f = judge(host_copy("h2d", "pinned", 55.33), two_gpus(18));
  EXPECT_EQ(f.status, fr::Status::within);
  EXPECT_EQ(f.tier, "pcie-host-copy");
  EXPECT_EQ(f.spec, "PCIe Gen5 x16");
  EXPECT_NEAR(f.ceiling_GBps, 63.008, 1e-9);
  EXPECT_NEAR(f.fraction, 0.8781, 1e-4);
  ASSERT_TRUE(f.floor);
  EXPECT_DOUBLE_EQ(*f.floor, 0.75);
}

TEST(RooflineTier, BidirectionalHostCopyAgainstBothDirections) {
  // Both ways: 2 x 63.008 = 126.016 GB/s; 94.94 / 126.016 = 0.7534, above the 60 % floor.
  const auto f = judge(host_copy("bi", "pinned", 94.94), two_gpus(18));
  EXPECT_EQ(f.status, fr::Status::within);
  EXPECT_EQ(f.direction, fr::Direction::bidirectional);
  EXPECT_NEAR(f.ceiling_GBps, 126.016, 1e-9);
  EXPECT_NEAR(f.fraction, 0.7534, 1e-4);
}

TEST(RooflineTier, LinkTrainedAtGen5x8IsBelowTheRooflineAndNamed) {
  // The link's maximum is Gen5 x16 (63.008 GB/s); trained at x8 it carries half: 27.66 GB/s is
  // 27.66 / 63.008 = 0.4390 -> 43.9 % < 75 %: BELOW-ROOFLINE, naming the trained link.
  json fp = two_gpus(18);
  fp["gpus"]["devices"][0]["pcie"]["current_width"] = 8;
  const auto f = judge(host_copy("d2h", "pinned", 27.66), fp);
  EXPECT_EQ(f.status, fr::Status::below_floor);
  EXPECT_NEAR(f.fraction, 0.4390, 1e-4);
  ASSERT_EQ(f.causes.size(), 1u);
  EXPECT_NE(f.causes[0].find("trained at Gen5 x8, below its maximum Gen5 x16"), std::string::npos);
  EXPECT_NE(f.text.find("BELOW-ROOFLINE"), std::string::npos);
  EXPECT_NE(f.text.find("PCIe Gen5 x16"), std::string::npos);
}

TEST(RooflineTier, Gen4x16LinkHasHalfTheGen5Ceiling) {
  // Gen4: 1.969 x 16 = 31.504 GB/s; 26.0 / 31.504 = 0.8253, above 75 %.
  json fp = two_gpus(18);
  fp["gpus"]["devices"][0]["pcie"] = {
      {"current_gen", 4}, {"current_width", 16}, {"max_gen", 4}, {"max_width", 16}};
  const auto f = judge(host_copy("h2d", "pinned", 26.0), fp);
  EXPECT_EQ(f.spec, "PCIe Gen4 x16");
  EXPECT_NEAR(f.ceiling_GBps, 31.504, 1e-9);
  EXPECT_EQ(f.status, fr::Status::within);
}

TEST(RooflineTier, ACopyFasterThanItsLinkIsNotPhysical) {
  // A fingerprint that says Gen1 x1 (0.25 GB/s) under a copy of 52.5 GB/s: "within" at 21,000 %
  // (issue 58) claimed the roofline held. No copy beats its link: NOT-PHYSICAL, never judged.
  json fp = two_gpus(18);
  fp["gpus"]["devices"][0]["pcie"] = {
      {"current_gen", 1}, {"current_width", 1}, {"max_gen", 1}, {"max_width", 1}};
  const auto f = judge(host_copy("h2d", "pinned", 52.5), fp);
  EXPECT_EQ(f.status, fr::Status::not_physical) << f.text;
  EXPECT_NE(f.text.find("no copy is faster than its link"), std::string::npos) << f.text;
  // At 100 % of the link or under, it is judged as before.
  EXPECT_EQ(judge(host_copy("h2d", "pinned", 55.33), two_gpus(18)).status, fr::Status::within);
}

TEST(RooflineTier, PageableCopiesHaveACeilingButNoFloor) {
  // 6.66 / 63.008 = 10.6 %: the host's memcpy bounds pageable copies, so the policy sets no floor.
  const auto f = judge(host_copy("h2d", "pageable", 6.66), two_gpus(18));
  EXPECT_EQ(f.tier, "pcie-host-copy-pageable");
  EXPECT_EQ(f.status, fr::Status::no_floor);
}

TEST(RooflineTier, GpuPairOverNvLink4x18) {
  // NVLink4 x18: 450 GB/s per direction; CE write 396.6 / 450 = 0.8813, above the 70 % floor.
  const auto uni =
      judge(result("p2p", "copy", {{"src", 0}, {"dst", 1}, {"mode", "uni"}}, 1ull << 30, 396.6),
            two_gpus(18));
  EXPECT_EQ(uni.tier, "nvlink-pair-copy");
  EXPECT_EQ(uni.spec, "NVLink4x18");
  EXPECT_NEAR(uni.fraction, 0.8813, 1e-4);
  EXPECT_EQ(uni.status, fr::Status::within);
  // Both ways: 900 GB/s; 336.5 / 900 = 0.3739 < 60 %: below.
  const auto bi =
      judge(result("p2p", "copy", {{"src", 0}, {"dst", 1}, {"mode", "bi"}}, 1ull << 30, 336.5),
            two_gpus(18));
  EXPECT_NEAR(bi.ceiling_GBps, 900.0, 1e-9);
  EXPECT_EQ(bi.status, fr::Status::below_floor);
}

TEST(RooflineTier, GpuPairWithoutNvLinkIsBoundByPcie) {
  // No NVLink between the pair: the slower PCIe link, Gen5 x16 = 63.008 GB/s.
  const auto f =
      judge(result("p2p", "copy", {{"src", 0}, {"dst", 1}, {"mode", "uni"}}, 1ull << 30, 50.0),
            two_gpus(0));
  EXPECT_EQ(f.tier, "pcie-pair-copy");
  EXPECT_NEAR(f.ceiling_GBps, 63.008, 1e-9);
  EXPECT_EQ(f.status, fr::Status::no_floor);  // no published PCIe peer figure: no floor
}

TEST(RooflineTier, LocalCopyTierIsUnknown) {
  const auto f =
      judge(result("p2p", "local_copy", {{"src", 0}, {"dst", 0}}, 1ull << 30, 2133), two_gpus(18));
  EXPECT_EQ(f.status, fr::Status::tier_unknown);
  EXPECT_NE(f.text.find("tier unknown"), std::string::npos);
}

TEST(RooflineTier, RingCollectiveOnNvLinkAndItsHalvedVariant) {
  // busbw against 450 GB/s: 327.2 / 450 = 0.7271 (>= 45 % at 1 GiB); halved 163.6 / 450 = 0.3636.
  const auto ok = judge(collective(327.2, 2, "Ring"), two_gpus(18));
  EXPECT_EQ(ok.tier, "nvlink-collective");
  EXPECT_EQ(ok.metric, "busbw");
  EXPECT_NEAR(ok.fraction, 0.7271, 1e-4);
  EXPECT_EQ(ok.status, fr::Status::within);
  const auto half = judge(collective(163.6, 2, "Ring"), two_gpus(18));
  EXPECT_EQ(half.status, fr::Status::below_floor);
  EXPECT_NEAR(half.fraction, 0.3636, 1e-4);
}

TEST(RooflineTier, FewerNvLinksAreNamedAsTheCause) {
  // GPU 0 has 12 of 18 links: the pair has 12 (300 GB/s); 100 / 300 = 33 % < 45 %.
  json fp = two_gpus(12, 12);
  const auto f = judge(collective(100, 2, "Ring"), fp);
  EXPECT_EQ(f.spec, "NVLink4x12");
  EXPECT_NEAR(f.ceiling_GBps, 300.0, 1e-9);
  EXPECT_EQ(f.status, fr::Status::below_floor);
  ASSERT_FALSE(f.causes.empty());
  EXPECT_NE(f.causes[0].find("GPU 0 has 12 of the 18 NVLink4 links active"), std::string::npos);
}

TEST(RooflineTier, NvlsAndTreeAbove100PercentAreNotPhysical) {
  // NVLS: never judged, whatever the figure. Tree at 480 GB/s > 450: not physical (P10).
  EXPECT_EQ(judge(collective(300, 8, "NVLS"), two_gpus(18)).status, fr::Status::not_physical);
  const auto tree = judge(collective(480, 8, "Tree"), two_gpus(18));
  EXPECT_EQ(tree.status, fr::Status::not_physical);
  EXPECT_NE(tree.text.find("a tree"), std::string::npos);
  // A tree below the tier is judged like a ring.
  EXPECT_EQ(judge(collective(300, 8, "Tree"), two_gpus(18)).status, fr::Status::within);
}

TEST(RooflineTier, InterNodeCollectivePerAcceleratorAgainstTheNicRate) {
  // 2 nodes x 8 GPUs (n = 16, k = 2), 8 NIC ports at 400 Gb/s: 8 x 400 / 8 bit / 8 GPUs = 50 GB/s
  // per GPU. busbw 555 at 16 GiB -> 555 x (2-1)/(16-1) = 37.0 GB/s = 74 % (>= 55 % floor).
  json fp = two_gpus(18);
  json devices = json::array();
  for (int i = 0; i < 8; ++i) {
    const json port = {{"port", 1}, {"state", "4: ACTIVE"}, {"rate", "400 Gb/sec (4X NDR)"}};
    devices.push_back({{"name", "mlx5_" + std::to_string(i)}, {"ports", json::array({port})}});
  }
  fp["rdma"] = {{"ibverbs", {{"devices", devices}}}};
  BenchmarkResult r = collective(555, 16, "Ring");
  r.bytes = 16ull << 30;
  fr::RunShape shape;
  shape.nodes = 2;
  shape.gpus_per_node = 8;
  shape.network = "IB";
  shape.gdrdma = true;
  const auto f = judge(r, fp, shape);
  EXPECT_EQ(f.tier, "nic-collective");
  EXPECT_NEAR(f.ceiling_GBps, 50.0, 1e-9);
  EXPECT_NEAR(f.measured_GBps, 37.0, 1e-9);
  EXPECT_EQ(f.status, fr::Status::within);
  // NET/Socket at busbw 100: 100 / 15 = 6.67 GB/s = 13.3 %: below, naming Socket (P05).
  r.busbw_GBps = 100;
  shape.network = "Socket";
  const auto slow = judge(r, fp, shape);
  EXPECT_EQ(slow.status, fr::Status::below_floor);
  ASSERT_FALSE(slow.causes.empty());
  EXPECT_NE(slow.causes[0].find("NET/Socket"), std::string::npos);
  // IB without GPUDirect RDMA: named as the cause (P06).
  shape.network = "IB";
  shape.gdrdma = false;
  const auto staged = judge(r, fp, shape);
  ASSERT_FALSE(staged.causes.empty());
  EXPECT_NE(staged.causes[0].find("GPUDirect RDMA not in use"), std::string::npos);
}

TEST(RooflineTier, EmulatedNodesHaveNoNicTier) {
  fr::RunShape shape;
  shape.nodes = 2;
  shape.nodes_emulated = true;
  const auto f = judge(collective(100, 4, "Ring"), two_gpus(18), shape);
  EXPECT_EQ(f.status, fr::Status::tier_unknown);
  EXPECT_NE(f.text.find("emulated"), std::string::npos);
}

TEST(RooflineTier, RdmaAgainstTheNicLineRate) {
  // 400 Gb/s = 50 GB/s per direction; 48.5 / 50 = 97 % (ib_write_bw's published fraction).
  const json port = {{"port", 1}, {"state", "4: ACTIVE"}, {"rate_Gbps", 400.0}};
  const json nic = {{"name", "mlx5_0"}, {"ports", json::array({port})}};
  const json fp = {{"rdma", {{"ibverbs", {{"devices", json::array({nic})}}}}}};
  BenchmarkResult r = result("rdma", "write", {{"device_requested", "mlx5_0"}}, 8ull << 20, 48.5);
  const auto f = judge(r, fp);
  EXPECT_EQ(f.tier, "nic-rdma");
  EXPECT_NEAR(f.fraction, 0.97, 1e-9);
  EXPECT_EQ(f.status, fr::Status::within);
}

TEST(RooflineTier, NoFingerprintSaysTheTierIsUnknown) {
  const auto f = judge(host_copy("h2d", "pinned", 55), json::object());
  EXPECT_EQ(f.status, fr::Status::tier_unknown);
  EXPECT_NE(f.text.find("no fingerprint with a GPU section"), std::string::npos);
}

TEST(RooflineTier, PortRateText) {
  EXPECT_DOUBLE_EQ(fr::parse_port_rate_Gbps("400 Gb/sec (4X NDR)"), 400.0);
  EXPECT_DOUBLE_EQ(fr::parse_port_rate_Gbps("100 Gb/sec"), 100.0);
  EXPECT_DOUBLE_EQ(fr::parse_port_rate_Gbps("unknown"), 0.0);
}
}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
