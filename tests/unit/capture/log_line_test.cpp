// Single lines: prefix fields, RCCL tails, garbage, and a random-input robustness sweep.
#include <gtest/gtest.h>

#include <random>

#include "harness/analysis/capture_summary.hpp"
#include "harness/analysis/log_facts.hpp"

namespace fabricgate::capture {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(captureLogLine, PrefixFieldsAreRead) {
  const auto parsed = parse_nccl_log_line("gpu-07:12345:12399 [5] NCCL INFO Using network IB\r");
  ASSERT_TRUE(parsed.has_value());
  ASSERT_TRUE(parsed->prefix.has_value());
  EXPECT_EQ(parsed->prefix->host, "gpu-07");
  EXPECT_EQ(parsed->prefix->pid, 12345);
  EXPECT_EQ(parsed->prefix->tid, 12399);
  EXPECT_EQ(parsed->prefix->cuda_dev, 5);
  ASSERT_TRUE(std::holds_alternative<NetworkFact>(parsed->fact));
  EXPECT_EQ(std::get<NetworkFact>(parsed->fact).name, "IB");
}

TEST(captureLogLine, TransportFieldsAndRcclTail) {
  const auto parsed = parse_nccl_log_line(
      "h:1:2 [1] NCCL INFO Channel 01/0 : 6[202000] -> 1[102000] [receive] via NET/AWS Libfabric/1 "
      "comm 0x7f2ab8622e40 nRanks 08");
  ASSERT_TRUE(parsed.has_value());
  const auto& t = std::get<TransportFact>(parsed->fact);
  EXPECT_EQ(t.channel, 1);
  EXPECT_EQ(t.conn, 0);
  EXPECT_EQ(t.from_rank, 6);
  EXPECT_EQ(t.to_rank, 1);
  EXPECT_EQ(t.direction, "receive");
  EXPECT_EQ(t.kind, "NET/AWS Libfabric");
  EXPECT_EQ(t.net_dev, 1);
  EXPECT_FALSE(t.gdrdma);
}

// As NCCL 2.28.3 wrote it on 2x H200 under NCCL_ALGO=Tree (results/h200-sxm-x2-nv18/controls).
TEST(captureLogLine, WarnLinesKeepTheReasonWithoutTheSourceLocation) {
  const auto parsed = parse_nccl_log_line(
      "[2026-11-29 21:03:55] vm:3256:3256 [0] enqueue.cc:1842 NCCL WARN Error : no "
      "algorithm/protocol "
      "available for function AllGather with datatype ncclInt8. NCCL_ALGO was set to Tree.");
  ASSERT_TRUE(parsed.has_value());
  ASSERT_TRUE(std::holds_alternative<WarningFact>(parsed->fact));
  EXPECT_EQ(
      std::get<WarningFact>(parsed->fact).text,
      "Error : no algorithm/protocol available for function AllGather with datatype ncclInt8. "
      "NCCL_ALGO was set to Tree.");
  ASSERT_TRUE(parsed->prefix.has_value());
  EXPECT_EQ(parsed->prefix->host, "vm");
  EXPECT_EQ(parsed->prefix->cuda_dev, 0);
  EXPECT_FALSE(parse_nccl_log_line("h:1:2 [0] misc.cc:1 NCCL WARN    ").has_value());
  const std::string long_text(1000, 'x');
  const auto capped = parse_nccl_log_line("h:1:2 [0] a.cc:1 NCCL WARN " + long_text);
  ASSERT_TRUE(capped.has_value());
  EXPECT_EQ(std::get<WarningFact>(capped->fact).text.size(), kMaxWarningChars);
}

TEST(captureLogLine, DistinctWarningsAreCountedAndBounded) {
  std::string log;
  for (int i = 0; i < 3; ++i) log += "h:1:2 [0] e.cc:9 NCCL WARN same reason\n";
  for (int i = 0; i < 50; ++i)
    log += "h:1:2 [0] e.cc:9 NCCL WARN reason " + std::to_string(i) + "\n";
  const CaptureSummary s = parse_nccl_logs({log});
  EXPECT_EQ(s.warnings.size(), kMaxDistinctWarnings);
  EXPECT_EQ(s.warnings.at("same reason"), 3u);
}

TEST(captureLogLine, CollNetAndIndirect) {
  const auto collnet =
      parse_nccl_log_line("h:1:2 [0] NCCL INFO CollNet 03/1 : 2 [send] via COLLNET/SHARP/0/GDRDMA");
  ASSERT_TRUE(collnet.has_value());
  EXPECT_EQ(std::get<TransportFact>(collnet->fact).kind, "COLLNET/SHARP");
  EXPECT_TRUE(std::get<TransportFact>(collnet->fact).gdrdma);
  const auto indirect = parse_nccl_log_line(
      "h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 3[3] via P2P/indirect/1[1]/read");
  ASSERT_TRUE(indirect.has_value());
  EXPECT_EQ(std::get<TransportFact>(indirect->fact).kind, "P2P/indirect");
  EXPECT_EQ(std::get<TransportFact>(indirect->fact).variant, "P2P/indirect/read");
}

TEST(captureLogLine, RingListingIsNotATransport) {
  // The graph prints ring orders with a similar "Channel" prefix but no "via".
  EXPECT_FALSE(parse_nccl_log_line("h:1:2 [0] NCCL INFO Channel 00/24 :    0   1").has_value());
}

TEST(captureLogLine, EnvValuesKeepTheirText) {
  const auto dotted =
      parse_nccl_log_line("h:1:2 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_0:1.");
  ASSERT_TRUE(dotted.has_value());
  EXPECT_EQ(std::get<EnvOverrideFact>(dotted->fact).value, "mlx5_0:1.");
  const auto number = parse_nccl_log_line(
      "h:1:2 [0] NCCL INFO NCCL_NCHANNELS_PER_NET_PEER set by environment to -1.");
  ASSERT_TRUE(number.has_value());
  EXPECT_EQ(std::get<EnvOverrideFact>(number->fact).value, "-1");
  EXPECT_FALSE(
      parse_nccl_log_line("h:1:2 [0] NCCL INFO bad name set by environment to 1").has_value());
}

// WARN lines are warnings, whatever words they contain: never a network or a version.
TEST(captureLogLine, WarnAndCompiledWithVersionAreNotVersionLines) {
  for (const char* line :
       {"\nh:1:2 [0] init.cc:1 NCCL WARN Using network IB",
        "h:1:2 [0] dev_runtime.cc:9 NCCL WARN compiled with NCCL version 2.29.2, running 2.28.3"}) {
    const auto parsed = parse_nccl_log_line(line);
    ASSERT_TRUE(parsed.has_value()) << line;
    EXPECT_TRUE(std::holds_alternative<WarningFact>(parsed->fact)) << line;
  }
  const CaptureSummary s =
      parse_nccl_logs({"h:1:2 [0] dev_runtime.cc:9 NCCL WARN compiled with NCCL version 2.29.2\n"});
  EXPECT_TRUE(s.nccl_version.empty());
  EXPECT_EQ(s.warnings.size(), 1u);
}

TEST(captureLogLine, GarbageIsIgnored) {
  // Embedded NULs: the length comes from the array (14 bytes), never a hand count.
  constexpr char kNulLine[] = "\0\0\0NCCL INFO \0";
  const std::vector<std::string> garbage = {
      "",
      " ",
      "NCCL INFO",
      "NCCL INFO ",
      "x [ NCCL INFO Channel",
      "h:1:2 [0] NCCL INFO Channel ",
      "h:1:2 [0] NCCL INFO Channel 99999999999999999999/0 : 0[0] -> 1[1] via P2P/IPC",
      "h:1:2 [0] NCCL INFO Channel 00/0 : 0[0 -> 1[1] via ",
      "h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via ",
      "h:1:2 [0] NCCL INFO 5 coll channels, x nvls channels",
      "h:1:2 [0] NCCL INFO AllReduce: 18446744073709551616 Bytes -> Algo Ring proto LL",
      "h:1:2 [0] NCCL INFO AllReduce: 8 Bytes -> Algo",
      "h:1:2 [0] NCCL INFO comm 0x1 rank 5 nranks 2 cudaDev 0 busId zz - Init COMPLETE",
      "h:1:2 [0] NCCL INFO PROFILER/Plugin: Loaded x (vq)",
      "h:1:2 [0] NCCL INFO NVLS multicast support is maybe",
      "#  Rank  0 Group  0 Pid 123 on h200 device  0 [0000:1b:00] NVIDIA H200",
      std::string(5000, '['),
      std::string(kNulLine, sizeof kNulLine - 1)};
  for (const auto& line : garbage) {
    EXPECT_FALSE(parse_nccl_log_line(line).has_value()) << line;
  }
  const CaptureSummary s = parse_nccl_logs(garbage);
  EXPECT_EQ(s.lines_recognised, 0u);
  EXPECT_TRUE(s.transports.empty());
}

// Random bytes and random splices of real lines: the parser must neither crash nor throw.
TEST(captureLogLine, RandomInputNeverThrows) {
  const std::vector<std::string> seeds = {
      "h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [send] via NET/IB/0(1)/GDRDMA(PCI)/Shared",
      "h:1:2 [0] NCCL INFO AllReduce: 8 Bytes -> Algo Ring proto LL channel{Lo..Hi}={0..3}",
      "h:1:2 [0] NCCL INFO 24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p channels",
      "h:1:2 [0] NCCL INFO [Rank 0] x comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1b000 - Init START",
      "h:1:2 [0] NCCL INFO NCCL version 2.28.3+cuda13.0"};
  std::mt19937 rng(1234);
  for (int i = 0; i < 20000; ++i) {
    std::string line = seeds[static_cast<std::size_t>(i) % seeds.size()];
    const std::size_t cut = rng() % (line.size() + 1);
    line.resize(cut);
    for (int k = 0; k < 3; ++k) {
      line.insert(line.begin() + static_cast<std::ptrdiff_t>(rng() % (line.size() + 1)),
                  static_cast<char>(rng() % 256));
    }
    EXPECT_NO_THROW(static_cast<void>(parse_nccl_log_line(line)));
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::capture
