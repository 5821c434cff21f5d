// Log corpora of NCCL 2.18 .. 2.23, generated from the INFO format strings of those tags.
#include <gtest/gtest.h>

#include "harness/analysis/capture_summary.hpp"
#include "log_writer.hpp"

namespace fabricgate::capture {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::comm_ptr;
using testing::LogWriter;

constexpr unsigned long kBus[4] = {0x1b000, 0x43000, 0x52000, 0x61000};

// 2.18: one node, 2 processes, legacy CUDA IPC, channel line without collnet.
std::vector<std::string> corpus_2_18() {
  std::vector<std::string> texts;
  for (int rank = 0; rank < 2; ++rank) {
    LogWriter w("node1", 100 + rank, rank);
    if (rank == 0) w.info("%s", "NCCL version 2.18.3+cuda12.2");
    w.info("Using network %s", "IB");
    w.info("comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx commId 0x%llx - Init START",
           comm_ptr(), rank, 2, rank, rank, kBus[rank], 0x1234ull);
    for (int ch = 0; ch < 2; ++ch) {
      w.info("Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/IPC%s%s", ch, 0, rank, rank, 1 - rank,
             1 - rank, "/read", "");
    }
    w.info("Connected all rings");
    w.info("Connected all trees");
    w.info("%d coll channels, %d nvls channels, %d p2p channels, %d p2p channels per peer", 2, 0, 2,
           2);
    w.info("NVLS multicast support is %savailable on dev %d", "not ", rank);
    w.info(
        "comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx commId 0x%llx - Init COMPLETE",
        comm_ptr(), rank, 2, rank, rank, kBus[rank], 0x1234ull);
    texts.push_back(w.text());
  }
  return texts;
}

TEST(captureCorpus, Nccl218SingleNodeIpc) {
  const CaptureSummary s = parse_nccl_logs(corpus_2_18());
  EXPECT_EQ(s.nccl_version, "2.18.3");
  EXPECT_EQ(s.network(), "IB");
  EXPECT_EQ(s.transports, (std::set<std::string>{"P2P/IPC"}));
  EXPECT_EQ(s.transport_connections.at("P2P/IPC/read"), 4u);
  EXPECT_FALSE(s.gdrdma);
  EXPECT_TRUE(s.rings_connected);
  EXPECT_TRUE(s.trees_connected);
  EXPECT_EQ(s.nvls_available, false);
  ASSERT_EQ(s.channels.size(), 1u);
  EXPECT_EQ(s.channels[0].coll, 2);
  EXPECT_EQ(s.channels[0].collnet, -1);
  EXPECT_EQ(s.channels[0].p2p_per_peer, 2);
  ASSERT_EQ(s.ranks.size(), 2u);
  EXPECT_EQ(s.ranks[1].rank, 1);
  EXPECT_EQ(s.ranks[1].bus_id, "0000:43:00.0");
  EXPECT_EQ(s.ranks[1].host, "node1");
  EXPECT_EQ(s.ranks[1].pid, 101);
  EXPECT_TRUE(s.ranks[1].init_complete);
}

// 2.19: P2P disabled, SHM between the two processes, sockets as network.
TEST(captureCorpus, Nccl219ShmWithP2pDisabled) {
  LogWriter w("node1", 200, 0);
  w.info("%s", "NCCL version 2.19.3+cuda12.3");
  w.info("%s set by environment to %lld.", "NCCL_P2P_DISABLE", 1LL);
  w.info("Using network %s", "Socket");
  w.info("Channel %02d : %d[%d] -> %d[%d] via SHM/%s/%s", 0, 0, 0, 1, 1, "direct", "direct");
  w.info("Channel %02d : %d[%d] -> %d[%d] via SHM/%s/%s", 1, 0, 0, 1, 1, "CE", "direct");
  const CaptureSummary s = parse_nccl_logs({w.text()});
  EXPECT_EQ(s.nccl_version, "2.19.3");
  EXPECT_EQ(s.network(), "Socket");
  EXPECT_EQ(s.transports, (std::set<std::string>{"SHM"}));
  EXPECT_EQ(s.transport_connections.at("SHM/CE/direct"), 1u);
  EXPECT_EQ(s.env_overrides.at("NCCL_P2P_DISABLE"), "1");
}

// 2.21: cuMem P2P, funcName-less init line, numeric TUNING lines from rank 0.
TEST(captureCorpus, Nccl221CumemAndNumericTuning) {
  LogWriter w("node1", 300, 0);
  w.info("%s", "NCCL version 2.21.5+cuda12.4");
  w.info("Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/%s%s%s", 0, 0, 0, 0, 1, 1, "CUMEM", "/read",
         "");
  w.info("Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/%s%s%s", 0, 1, 0, 0, 1, 1, "CUMEM", "",
         "/CE");
  w.info(
      "%d coll channels, %d collnet channels, %d nvls channels, %d p2p channels, %d p2p channels "
      "per peer",
      24, 24, 0, 32, 2);
  w.info(
      "ncclCommInitRank comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx commId 0x%llx - "
      "Init COMPLETE",
      comm_ptr(), 0, 2, 0, 0, kBus[0], 0x99ull);
  for (int i = 0; i < 3; ++i) w.info("%ld Bytes -> Algo %d proto %d time %f", 8L, 1, 0, 6.5);
  w.info("%ld Bytes -> Algo %d proto %d time %f", 1048576L, 1, 2, 40.0);
  w.info("%ld Bytes -> Algo %d proto %d time %f", 1048576L, 0, 1, 35.0);
  const CaptureSummary s = parse_nccl_logs({w.text()});
  EXPECT_EQ(s.transports, (std::set<std::string>{"P2P/CUMEM"}));
  EXPECT_EQ(s.transport_connections.at("P2P/CUMEM/read"), 1u);
  EXPECT_EQ(s.transport_connections.at("P2P/CUMEM/CE"), 1u);
  ASSERT_EQ(s.channels.size(), 1u);
  EXPECT_EQ(s.channels[0].collnet, 24);
  ASSERT_EQ(s.ranks.size(), 1u);
  EXPECT_EQ(s.ranks[0].nranks, 2);
  ASSERT_EQ(s.tuning.size(), 3u);
  EXPECT_EQ(s.tuning[0].bytes, 8u);
  EXPECT_EQ(s.tuning[0].algo, "Ring");
  EXPECT_EQ(s.tuning[0].proto, "LL");
  EXPECT_EQ(s.tuning[0].count, 3u);
  EXPECT_EQ(s.tuning[0].func, "");
  EXPECT_EQ(s.tuning[1].algo, "Ring");
  EXPECT_EQ(s.tuning[1].proto, "Simple");
  EXPECT_EQ(s.tuning[2].algo, "Tree");
  EXPECT_EQ(s.tuning[2].proto, "LL128");
}

// 2.23: two nodes x two GPUs, NET/IB with GDRDMA (and PXN proxy form), P2P inside a node.
TEST(captureCorpus, Nccl223MultiNodeIbGdrdma) {
  std::vector<std::string> texts;
  for (int rank = 0; rank < 4; ++rank) {
    LogWriter w(rank < 2 ? "nodeA" : "nodeB", 400 + rank, rank % 2);
    w.info("%s", "NCCL version 2.23.4+cuda12.6");
    w.info("Using network %s", "IB");
    const int peer = rank ^ 1;
    w.info("Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/%s%s%s", 0, 0, rank, rank % 2, peer,
           peer % 2, "CUMEM", "/read", "");
    const int remote = (rank + 2) % 4;
    w.info("Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d%s%s", 0, 0, rank, rank % 2,
           remote, remote % 2, "IB", rank % 2, "/GDRDMA", "");
    w.info("Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d(%d)%s%s", 1, 0, rank, rank % 2,
           remote, remote % 2, "IB", 1, peer, "/GDRDMA", "/Shared");
    w.info("Channel %02d/%d : %d[%d] -> %d[%d] [receive] via NET/%s/%d%s%s", 0, 0, remote,
           remote % 2, rank, rank % 2, "IB", rank % 2, "/GDRDMA", "");
    w.info(
        "%s comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx commId 0x%llx - Init "
        "COMPLETE",
        "ncclCommInitRankConfig", comm_ptr(), rank, 4, rank % 2, rank % 2, kBus[rank % 2], 0x5ull);
    if (rank == 0) {
      w.info("%s: %ld Bytes -> Algo %d proto %d time %f", "AllGather", 4194304L, 6, 2, 120.0);
      w.info("%s: %ld Bytes -> Algo %d proto %d time %f", "AllReduce", 4194304L, 0, 2, 150.0);
    }
    texts.push_back(w.text());
  }
  const CaptureSummary s = parse_nccl_logs(texts);
  EXPECT_EQ(s.nccl_version, "2.23.4");
  EXPECT_EQ(s.network(), "IB");
  EXPECT_EQ(s.transports, (std::set<std::string>{"NET/IB", "P2P/CUMEM"}));
  EXPECT_TRUE(s.gdrdma);
  EXPECT_EQ(s.transport_connections.at("NET/IB/GDRDMA"), 8u);
  EXPECT_EQ(s.transport_connections.at("NET/IB/GDRDMA/Shared"), 4u);
  ASSERT_EQ(s.ranks.size(), 4u);
  EXPECT_EQ(s.ranks[2].host, "nodeB");
  EXPECT_EQ(s.ranks[2].cuda_dev, 0);
  ASSERT_EQ(s.tuning.size(), 2u);
  EXPECT_EQ(s.tuning[0].func, "AllGather");
  EXPECT_EQ(s.tuning[0].algo, "PAT");
  EXPECT_EQ(s.tuning[1].algo, "Tree");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::capture
