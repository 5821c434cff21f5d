// fi_info parsing and per-device grouping (P18: an EFA device listed twice counts once).
#include "harness/fingerprint/fi_info_parser.hpp"

#include <gtest/gtest.h>

#include "harness/fingerprint/rdma_section.hpp"

namespace fabricgate::fingerprint {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

// libfabric >= 1.22 on one EFA NIC: the same domain under fabric "efa" and "efa-direct", plus the
// host's tcp provider; then an older libfabric's -rdm/-dgrm domain pair for a second NIC.
constexpr const char* kEfaListing = R"(provider: efa
    fabric: efa
    domain: rdmap16s27-rdm
    version: 122.0
    type: FI_EP_RDM
    protocol: FI_PROTO_EFA
provider: efa
    fabric: efa-direct
    domain: rdmap16s27-rdm
    version: 122.0
    type: FI_EP_RDM
    protocol: FI_PROTO_EFA
provider: efa
    fabric: efa
    domain: rdmap32s27-rdm
    version: 117.0
    type: FI_EP_RDM
    protocol: FI_PROTO_EFA
provider: efa
    fabric: efa
    domain: rdmap32s27-dgrm
    version: 117.0
    type: FI_EP_DGRAM
    protocol: FI_PROTO_EFA
provider: tcp;ofi_rxm
    fabric: 10.0.0.0/16
    domain: eth0
    version: 117.0
    type: FI_EP_RDM
    protocol: FI_PROTO_RXM
provider: tcp
    fabric: 10.0.0.0/16
    domain: eth0
    version: 117.0
    type: FI_EP_MSG
    protocol: FI_PROTO_SOCK_TCP
)";

TEST(fingerprint_fi_info_parser, ParsesEveryEntry) {
  const auto entries = parse_fi_info(kEfaListing);
  ASSERT_EQ(entries.size(), 6U);
  EXPECT_EQ(entries[1].provider, "efa");
  EXPECT_EQ(entries[1].fabric, "efa-direct");
  EXPECT_EQ(entries[1].domain, "rdmap16s27-rdm");
  EXPECT_EQ(entries[3].type, "FI_EP_DGRAM");
  EXPECT_EQ(entries[4].provider, "tcp;ofi_rxm");
  EXPECT_EQ(entries[4].protocol, "FI_PROTO_RXM");
}

TEST(fingerprint_fi_info_parser, EfaDeviceListedTwiceCountsOnce) {  // P18
  const auto devices = group_by_device(parse_fi_info(kEfaListing));
  const json summary = fabric_devices_json(devices);
  EXPECT_EQ(summary["efa_device_count"], 2);   // 4 efa lines, 2 NICs
  EXPECT_EQ(summary["rdma_device_count"], 2);  // tcp on eth0 is not RDMA
  EXPECT_EQ(summary["device_count"], 3);
  ASSERT_EQ(devices[0].device, "rdmap16s27");
  EXPECT_EQ(devices[0].entries, 2U);
  EXPECT_EQ(devices[0].fabrics, (std::vector<std::string>{"efa", "efa-direct"}));
  EXPECT_EQ(devices[1].device, "rdmap32s27");
  EXPECT_EQ(devices[1].domains, (std::vector<std::string>{"rdmap32s27-rdm", "rdmap32s27-dgrm"}));
  EXPECT_EQ(devices[2].device, "eth0");
  EXPECT_FALSE(devices[2].rdma);
  EXPECT_EQ(devices[2].providers, (std::vector<std::string>{"tcp;ofi_rxm", "tcp"}));
}

TEST(fingerprint_fi_info_parser, ProviderAndDomainNames) {
  EXPECT_EQ(core_provider("verbs;ofi_rxm"), "verbs");
  EXPECT_TRUE(is_rdma_provider("verbs;ofi_rxm"));
  EXPECT_TRUE(is_rdma_provider("efa"));
  EXPECT_FALSE(is_rdma_provider("tcp;ofi_rxm"));
  EXPECT_FALSE(is_rdma_provider("shm"));
  EXPECT_EQ(device_of_domain("mlx5_0-xrc"), "mlx5_0");
  EXPECT_EQ(device_of_domain("mlx5_0-dgram"), "mlx5_0");
  EXPECT_EQ(device_of_domain("eth0"), "eth0");
}

TEST(fingerprint_fi_info_parser, NoiseAndEmptyText) {
  EXPECT_TRUE(parse_fi_info("").empty());
  EXPECT_TRUE(parse_fi_info("fi_getinfo: -61 (No data available)\n").empty());
  const auto entries =
      parse_fi_info("libfabric:123:warn: something\nprovider: shm\n domain: shm\n");
  ASSERT_EQ(entries.size(), 1U);
  EXPECT_EQ(entries[0].domain, "shm");
}

TEST(fingerprint_rdma_section, SysfsAndLibfabricViewsCountEachNicOnce) {
  RdmaInventory verbs;
  verbs.available = true;
  RdmaDevice efa0{"rdmap16s27", "efa", {{1, "ACTIVE", "100 Gb/sec", 100.0, "Unspecified"}}};
  RdmaDevice spare{"mlx5_9", "mlx5_core", {{1, "DOWN", "", 0.0, "Ethernet"}}};
  verbs.devices = {spare, efa0};
  FiInfoOutcome fi_info;
  fi_info.ran = true;
  fi_info.program = "fi_info";
  fi_info.entries = parse_fi_info(kEfaListing);
  const json section = rdma_section(verbs, fi_info);
  // rdmap16s27 seen by both views, rdmap32s27 by libfabric only, mlx5_9 has no active port.
  EXPECT_EQ(section["rdma_device_count"], 2);
  EXPECT_EQ(section["rdma_devices"], (json{"rdmap16s27", "rdmap32s27"}));
  EXPECT_TRUE(section["libfabric"]["available"].get<bool>());
  ASSERT_EQ(section["notes"].size(), 2U);
  EXPECT_EQ(section["notes"][0]["id"], "P18");
}

TEST(fingerprint_rdma_section, MissingFiInfoIsSkippedWithReason) {
  const FiInfoOutcome outcome = run_fi_info("fabricgate-no-such-fi_info", std::chrono::seconds(5));
  EXPECT_FALSE(outcome.ran);
  EXPECT_NE(outcome.reason.find("could not be started"), std::string::npos) << outcome.reason;
  const json section = rdma_section(RdmaInventory{}, outcome);
  EXPECT_FALSE(section["libfabric"]["available"].get<bool>());
  EXPECT_EQ(section["rdma_device_count"], 0);
  EXPECT_EQ(run_fi_info("", std::chrono::seconds(1)).reason, "fi_info probe switched off");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::fingerprint
