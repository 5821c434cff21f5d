// Log corpora of NCCL 2.26 .. 2.30, generated from the INFO format strings of those tags.
#include <gtest/gtest.h>

#include "harness/analysis/capture_summary.hpp"
#include "log_writer.hpp"

namespace fabricgate::capture {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::comm_ptr;
using testing::LogWriter;

// 2.26: ranks of one host made into "nodes" with NCCL_HOSTID -> NET/Socket; ring PXN/GDR line.
TEST(captureCorpus, Nccl226SocketFallback) {
  std::vector<std::string> texts;
  for (int rank = 0; rank < 2; ++rank) {
    LogWriter w("node1", 500 + rank, rank);
    w.info("%s", "NCCL version 2.26.2+cuda12.8");
    w.info("NCCL_HOSTID set by environment to %s", rank == 0 ? "a" : "b");
    w.info("Using network %s", "Socket");
    w.info("Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d%s%s%s", 0, 0, rank, rank,
           1 - rank, 1 - rank, "Socket", 0, "", "", "");
    w.info("Channel %02d/%d : %d[%d] -> %d[%d] [receive] via NET/%s/%d%s%s%s", 0, 0, 1 - rank,
           1 - rank, rank, rank, "Socket", 0, "", "", "");
    w.info("Connected all rings, use ring PXN %d GDR %d", 0, 0);
    if (rank == 0) {
      w.info("%s: %ld Bytes -> Algo %s proto %s channel{Lo..Hi}={%d..%d}", "AllReduce", 8L, "Ring",
             "LL", 0, 1);
    }
    texts.push_back(w.text());
  }
  const CaptureSummary s = parse_nccl_logs(texts);
  EXPECT_EQ(s.network(), "Socket");
  EXPECT_EQ(s.transports, (std::set<std::string>{"NET/Socket"}));
  EXPECT_FALSE(s.gdrdma);
  EXPECT_EQ(s.ring_pxn, 0);
  EXPECT_EQ(s.ring_gdr, 0);
  EXPECT_EQ(s.env_overrides.at("NCCL_HOSTID"), "b");  // last writer wins; both are logged
  ASSERT_EQ(s.tuning.size(), 1u);
  EXPECT_EQ(s.tuning[0].channels, 2);
}

// 2.27: AWS OFI plugin over EFA, GDRDMA with (PCI) and /Shared, symmetric kernel, profiler v4.
TEST(captureCorpus, Nccl227AwsOfiPlugin) {
  LogWriter w("p5-node-1", 600, 3);
  w.info("%s", "NCCL version 2.27.3+cuda12.9");
  w.raw("p5-node-1:600:607 [3] NCCL INFO NET/OFI Selected Provider is efa (found 32 nics)");
  w.info("Using network %s", "AWS Libfabric");
  w.info("Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d%s%s%s", 2, 1, 3, 3, 11, 3,
         "AWS Libfabric", 1, "/GDRDMA", "(PCI)", "/Shared");
  w.info("PROFILER/Plugin: Loaded %s (v%d)", "fabricgate", 4);
  w.info("%s [Symmetric]: %ld Bytes -> Kernel %s nchannels %d nthreads %d", "AllReduce", 1024L,
         "AllReduce_AGxLL_R", 4, 512);
  const CaptureSummary s = parse_nccl_logs({w.text()});
  EXPECT_EQ(s.network(), "AWS Libfabric");
  EXPECT_EQ(s.net_provider, "efa");
  EXPECT_EQ(s.transports, (std::set<std::string>{"NET/AWS Libfabric"}));
  EXPECT_TRUE(s.gdrdma);
  EXPECT_EQ(s.transport_connections.at("NET/AWS Libfabric/GDRDMA(PCI)/Shared"), 1u);
  EXPECT_EQ(s.profiler_plugin, "fabricgate (v4)");
  ASSERT_EQ(s.tuning.size(), 1u);
  EXPECT_EQ(s.tuning[0].algo, "Symmetric");
  EXPECT_EQ(s.tuning[0].kernel, "AllReduce_AGxLL_R");
  EXPECT_EQ(s.tuning[0].channels, 4);
}

// 2.28 on the 2x H200 shape: one process per GPU (P2P/CUMEM) and the in-process multi-GPU shape
// (P2P/direct pointer); NVLS line with NVLS_NCHANNELS; timestamps; mpirun output tags.
TEST(captureCorpus, Nccl228TwoGpus) {
  LogWriter w("h200", 700, 0);
  w.set_timestamp("[2026-11-29 19:00:00] ");
  w.info("%s", "NCCL version 2.28.3+cuda13.0");
  w.set_timestamp("");
  w.info("NCCL_PROTO set by environment to %s", "LL,Simple");
  w.info("NVLS multicast support is %savailable on dev %d (NVLS_NCHANNELS %d)", "not ", 0, 0);
  w.info("Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/%s%s%s", 0, 0, 0, 0, 1, 1, "CUMEM", "/read",
         "");
  w.info(
      "%d coll channels, %d collnet channels, %d nvls channels, %d p2p channels, %d p2p channels "
      "per peer",
      24, 24, 0, 32, 32);
  w.info("%s: %ld Bytes -> Algo %s proto %s channel{Lo..Hi}={%d..%d}", "AllReduce", 8L, "Ring",
         "LL", 0, 0);
  w.info("%s: %ld Bytes -> Algo %s proto %s channel{Lo..Hi}={%d..%d}", "AllReduce", 8L, "Ring",
         "LL", 0, 0);
  // 2.28.3 itself prints upper-case names here (seen on the H200 machine); they are normalised.
  w.info("%s: %ld Bytes -> Algo %s proto %s channel{Lo..Hi}={%d..%d}", "AllReduce", 4194304L,
         "RING", "SIMPLE", 0, 23);
  w.info("%s [Symmetric]: %ld Bytes -> Kernel %s nchannels %d nthreads %d nWorks %d", "AllGather",
         64L, "AllGather_LL", 2, 256, 1);
  LogWriter tagged("h200", 701, 1);
  tagged.raw(
      "[1,1]<stdout>:h200:701:708 [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via P2P/CUMEM/read");
  tagged.raw(
      "[1,1]<stdout>:h200:701:708 [1] NCCL INFO comm 0x5612 rank 1 nranks 2 cudaDev 1 nvmlDev 1 "
      "busId 43000 commId 0x77 - Init COMPLETE");
  LogWriter single("h200", 702, 0);
  single.info("Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/direct pointer%s", 0, 0, 0, 0, 1, 1,
              "");
  single.info("Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/direct pointer%s", 1, 0, 1, 1, 0, 0,
              "/read");

  const CaptureSummary s = parse_nccl_logs({w.text(), tagged.text(), single.text()});
  EXPECT_EQ(s.nccl_version, "2.28.3");
  EXPECT_EQ(s.nccl_versions_full, (std::set<std::string>{"2.28.3+cuda13.0"}));
  EXPECT_EQ(s.env_overrides.at("NCCL_PROTO"), "LL,Simple");
  EXPECT_EQ(s.nvls_available, false);
  EXPECT_EQ(s.transports, (std::set<std::string>{"P2P/CUMEM", "P2P/direct pointer"}));
  EXPECT_EQ(s.transport_connections.at("P2P/CUMEM/read"), 2u);
  EXPECT_EQ(s.transport_connections.at("P2P/direct pointer/read"), 1u);
  ASSERT_EQ(s.ranks.size(), 1u);
  EXPECT_EQ(s.ranks[0].host, "h200");
  EXPECT_EQ(s.ranks[0].bus_id, "0000:43:00.0");
  ASSERT_EQ(s.tuning.size(), 3u);
  EXPECT_EQ(s.tuning[0].func, "AllGather");
  EXPECT_EQ(s.tuning[1].bytes, 8u);
  EXPECT_EQ(s.tuning[1].channels, 1);
  EXPECT_EQ(s.tuning[1].count, 2u);
  EXPECT_EQ(s.tuning[2].channels, 24);
  EXPECT_EQ(s.tuning[2].algo, "Ring");
  EXPECT_EQ(s.tuning[2].proto, "Simple");
}

// 2.29 / 2.30: "[Rank %d]" init START, bare VERSION-level line, SHM, plugin env lines.
TEST(captureCorpus, Nccl229And230) {
  LogWriter w("node9", 800, 0);
  w.raw("NCCL version 2.30.3+cuda13.0");
  w.info("NCCL_NET_PLUGIN set by environment to %s", "none");
  w.info(
      "[Rank %d] %s comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx commId 0x%llx - Init "
      "START",
      0, "ncclCommInitRank", comm_ptr(), 0, 2, 0, 0, 0x1b000UL, 0x42ull);
  w.info("Channel %02d : %d[%d] -> %d[%d] via SHM/%s/%s", 0, 0, 0, 1, 1, "direct", "direct");
  w.info("NVLS multicast support is %savailable on dev %d", "", 0);
  w.info(
      "%s comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx parent %p childCount %d color "
      "%d key %d- Init START",
      "ncclCommSplit", comm_ptr(), 0, 1, 0, 0, 0x1b000UL, comm_ptr(), 1, 0, 0);
  const CaptureSummary s = parse_nccl_logs({w.text()});
  EXPECT_EQ(s.nccl_version, "2.30.3");
  EXPECT_EQ(s.env_overrides.at("NCCL_NET_PLUGIN"), "none");
  EXPECT_EQ(s.transports, (std::set<std::string>{"SHM"}));
  EXPECT_EQ(s.nvls_available, true);
  ASSERT_EQ(s.ranks.size(), 2u);
  EXPECT_EQ(s.ranks[0].nranks, 2);  // the world communicator first, then the split one
  EXPECT_FALSE(s.ranks[0].init_complete);
  EXPECT_EQ(s.ranks[1].nranks, 1);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::capture
