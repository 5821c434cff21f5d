// Suite-entry options of the rdma family, key names, pairing and the verbs link-rate table.
#include <gtest/gtest.h>

#include "bench/backends/verbs/verbs_backend.hpp"
#include "bench/fixtures/rdma/rdma_options.hpp"
#include "core/errors.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

RdmaEntryOptions parse(const json& entry) {
  const json doc = {{"benchmarks", json::array({entry})}};
  const JsonReader reader(doc, "suite.json");
  return read_rdma_options(SuiteEntry{reader, "/benchmarks/0", MeasurePlan{}});
}

std::string error_of(const json& entry) {
  try {
    parse(entry);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(RdmaOptions, LibfabricDefaultsAndExplicitProviders) {
  auto o = parse({{"family", "rdma"}, {"backend", "libfabric"}, {"sizes", {{"list", {8}}}}});
  EXPECT_EQ(o.transports, std::vector<std::string>{"tcp"});
  ASSERT_EQ(o.ops.size(), 4u);
  EXPECT_EQ(o.ops[3], TransferOp::pingpong);
  EXPECT_EQ(o.window, kDefaultWindow);
  EXPECT_FALSE(o.device_memory);
  EXPECT_DOUBLE_EQ(o.timeout_s, 30);

  o = parse({{"backend", "libfabric"},
             {"providers", {"tcp", "shm", "verbs;ofi_rxm", "efa", "cxi"}},
             {"ops", {"read"}},
             {"memory", "device"},
             {"window", 8},
             {"domain", "lo"},
             {"timeout_s", 2.5}});
  EXPECT_EQ(o.transports.size(), 5u);
  EXPECT_EQ(o.transports[2], "verbs;ofi_rxm");
  EXPECT_EQ(o.ops, std::vector<TransferOp>{TransferOp::read});
  EXPECT_TRUE(o.device_memory);
  EXPECT_EQ(o.window, 8);
  EXPECT_EQ(o.domain, "lo");
  EXPECT_DOUBLE_EQ(o.timeout_s, 2.5);
}

TEST(RdmaOptions, BadValuesNameTheField) {
  EXPECT_NE(error_of({{"backend", "ucx"}}).find("/benchmarks/0/backend"), std::string::npos);
  EXPECT_NE(error_of({{"backend", "libfabric"}, {"providers", {"tcp", "TCP; rm -rf"}}})
                .find("/benchmarks/0/providers/1"),
            std::string::npos);
  EXPECT_NE(error_of({{"backend", "libfabric"}, {"ops", {"atomic"}}}).find("/benchmarks/0/ops/0"),
            std::string::npos);
  EXPECT_NE(error_of({{"backend", "libfabric"}, {"memory", "gpu"}}).find("/benchmarks/0/memory"),
            std::string::npos);
  EXPECT_NE(error_of({{"backend", "libfabric"}, {"window", 0}}).find("/benchmarks/0/window"),
            std::string::npos);
  EXPECT_NE(error_of({{"backend", "libfabric"}, {"timeout_s", -1}}).find("/benchmarks/0/timeout_s"),
            std::string::npos);
  EXPECT_NE(
      error_of({{"backend", "libfabric"}, {"devices", {"mlx5_0"}}}).find("/benchmarks/0/devices"),
      std::string::npos);
  EXPECT_NE(
      error_of({{"backend", "verbs"}, {"providers", {"tcp"}}}).find("/benchmarks/0/providers"),
      std::string::npos);
  EXPECT_NE(error_of({{"backend", "verbs"}, {"transport", "ud"}}).find("/benchmarks/0/transport"),
            std::string::npos);
  EXPECT_NE(error_of({{"backend", "verbs"}, {"qps", 65}}).find("/benchmarks/0/qps"),
            std::string::npos);
}

TEST(RdmaOptions, VerbsOptions) {
  const auto o = parse({{"backend", "verbs"},
                        {"devices", {"mlx5_0", "any"}},
                        {"qps", 4},
                        {"port", 2},
                        {"gid_index", 3},
                        {"transport", "srd"}});
  EXPECT_EQ(o.transports, (std::vector<std::string>{"mlx5_0", "any"}));
  EXPECT_EQ(o.qps, 4);
  EXPECT_EQ(o.port, 2);
  EXPECT_EQ(o.gid_index, 3);
  EXPECT_EQ(o.verbs_transport, "srd");
  EXPECT_EQ(parse({{"backend", "verbs"}}).gid_index, -1);
}

TEST(RdmaOptions, ProviderNames) {
  for (const char* ok :
       {"tcp", "shm", "verbs", "efa", "cxi", "psm3", "verbs;ofi_rxm", "tcp;ofi_rxm"}) {
    EXPECT_TRUE(is_valid_provider_name(ok)) << ok;
  }
  for (const char* bad : {"", "TCP", "tcp;", ";tcp", "a;b;c", "tcp rxm", "../x", "1tcp", "t$p"}) {
    EXPECT_FALSE(is_valid_provider_name(bad)) << bad;
  }
}

TEST(RdmaKeys, DefaultKeysAreShortAndStable) {
  EXPECT_EQ(rdma_key({"libfabric", "tcp", TransferOp::write, 65536, 2}),
            "rdma/libfabric/tcp/write/bytes:65536/ranks:2");
  EXPECT_EQ(rdma_key({"libfabric", "shm", TransferOp::pingpong, 8, 4}),
            "rdma/libfabric/shm/pingpong/bytes:8/ranks:4");
  EXPECT_EQ(rdma_key({"verbs", "mlx5_0", TransferOp::read, 1048576, 2}),
            "rdma/verbs/mlx5_0/read/bytes:1048576/ranks:2");
}

TEST(RdmaKeys, NonDefaultOptionsAppearInTheKey) {
  RdmaKeyParts p{"verbs", "mlx5_0", TransferOp::send, 4096, 2};
  p.window = 16;
  p.qps = 4;
  p.verbs_transport = "srd";
  p.device_memory = true;
  EXPECT_EQ(rdma_key(p),
            "rdma/verbs/mlx5_0/send/bytes:4096/ranks:2/window:16/qps:4/srd/mem:device");
  p.op = TransferOp::pingpong;  // the window does not apply to ping-pong
  EXPECT_EQ(rdma_key(p), "rdma/verbs/mlx5_0/pingpong/bytes:4096/ranks:2/qps:4/srd/mem:device");
}

TEST(RdmaPairs, EvenRankCountsOnly) {
  EXPECT_EQ(pairing_problem(2), "");
  EXPECT_EQ(pairing_problem(8), "");
  EXPECT_NE(pairing_problem(1).find("need 2 ranks"), std::string::npos);
  EXPECT_NE(pairing_problem(3).find("rank 2 has no partner"), std::string::npos);
}

TEST(VerbsLinkRate, SpeedAndWidthCodes) {
  EXPECT_DOUBLE_EQ(link_rate_gbps(32, 2), 100.0);   // EDR 4x
  EXPECT_DOUBLE_EQ(link_rate_gbps(64, 2), 200.0);   // HDR 4x
  EXPECT_DOUBLE_EQ(link_rate_gbps(128, 2), 400.0);  // NDR 4x
  EXPECT_DOUBLE_EQ(link_rate_gbps(64, 16), 100.0);  // HDR 2x (HDR100)
  EXPECT_DOUBLE_EQ(link_rate_gbps(4, 8), 96.0);     // QDR 12x
  EXPECT_DOUBLE_EQ(link_rate_gbps(3, 2), 0.0);      // unknown speed code
  EXPECT_EQ(link_name(32, 2), "EDR 4x");
  EXPECT_EQ(link_name(3, 9), "speed code 3 width code 9");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
