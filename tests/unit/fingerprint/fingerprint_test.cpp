// collect(): the assembled document (schema fields from docs/DESIGN.md) on a fake machine, and
// summarize() on it and on the document recorded on the 2xH200 test machine.
#include "harness/fingerprint/fingerprint.hpp"

#include <gtest/gtest.h>

#include "fake_tree.hpp"
#include "gpu_inventories.hpp"

namespace fabricgate::fingerprint {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::FakeTree;

constexpr const char* kFiInfoScript =
    "cat <<'END'\n"
    "provider: efa\n    fabric: efa\n    domain: rdmap16s27-rdm\n    type: FI_EP_RDM\n"
    "provider: efa\n    fabric: efa-direct\n    domain: rdmap16s27-rdm\n    type: FI_EP_RDM\n"
    "END\n";

void expect_schema(const json& doc) {
  EXPECT_EQ(doc["schema"], "fabricgate.fingerprint/1");
  EXPECT_TRUE(doc["platform_key"].is_string());
  for (const char* field :
       {"gpu_model", "gpu_count", "gpu_topology", "cpu_model", "rdma_devices"}) {
    EXPECT_TRUE(doc["identity"].contains(field)) << field;
  }
  for (const char* field : {"driver", "cuda_driver", "cuda_runtime", "nccl", "mpi"}) {
    EXPECT_TRUE(doc["versions"][field].is_string()) << field;
  }
  for (const char* section : {"host", "gpus", "rdma", "nccl", "environment"}) {
    EXPECT_TRUE(doc[section].is_object()) << section;
  }
  EXPECT_TRUE(doc["gpus"]["available"].is_boolean());
  EXPECT_TRUE(doc["gpus"]["reason"].is_string());
  EXPECT_TRUE(doc["gpus"]["devices"].is_array());
}

struct FakeMachine {
  FakeTree tree;
  CollectOptions options;
  explicit FakeMachine(const GpuQuery* gpus) {
    tree.write("proc/cpuinfo",
               "processor\t: 0\nmodel name\t: AMD EPYC 9B14 96-Core Processor\n\n"
               "processor\t: 1\nmodel name\t: AMD EPYC 9B14 96-Core Processor\n");
    tree.write("etc/os-release", "PRETTY_NAME=\"Ubuntu 24.04.3 LTS\"\nID=ubuntu\n");
    tree.write("etc/nccl.conf", "NCCL_SOCKET_IFNAME=eth0\n");
    tree.write("sys/class/infiniband/rdmap16s27/ports/1/state", "4: ACTIVE\n");
    tree.write("sys/class/infiniband/rdmap16s27/ports/1/rate", "100 Gb/sec\n");
    options.root = tree.root();
    options.gpu_query = gpus;
    options.environment =
        std::vector<std::string>{"NCCL_NVLS_ENABLE=0", "HF_TOKEN=x", "NCCL_API_TOKEN=s3cret",
                                 "HOME=" + (tree.root() / "home").string()};
    options.fi_info_program = tree.script("bin/fi_info", kFiInfoScript).string();
    options.probe_libraries = false;
  }
};

TEST(fingerprint_document, GpuMachineDocument) {
  GpuInventory inventory = testing::h200_x2();
  inventory.devices[1].pcie = PcieLink{4, 5, 8, 16};
  const RecordedGpuQuery gpus(inventory);
  FakeMachine machine(&gpus);
  const json doc = collect(machine.options);
  expect_schema(doc);
  EXPECT_EQ(doc["platform_key"], "h200-sxm-x2-nv18");
  EXPECT_EQ(doc["platform_key_source"], "derived");
  EXPECT_EQ(doc["identity"]["gpu_model"], "NVIDIA H200");
  EXPECT_EQ(doc["identity"]["gpu_count"], 2);
  EXPECT_EQ(doc["identity"]["gpu_topology"], "NV18");
  EXPECT_EQ(doc["identity"]["cpu_model"], "AMD EPYC 9B14 96-Core Processor");
  EXPECT_EQ(doc["identity"]["rdma_devices"], 1);  // sysfs + two fi_info lines: one NIC (P18)
  EXPECT_EQ(doc["versions"]["driver"], "580.159.04");
  EXPECT_EQ(doc["versions"]["cuda_driver"], "13.0");
  EXPECT_EQ(doc["versions"]["nccl"], "");  // probes switched off
  EXPECT_EQ(doc["nccl"]["config_files"][0]["contents"], "NCCL_SOCKET_IFNAME=eth0\n");
  EXPECT_EQ(doc["environment"]["variables"]["NCCL_NVLS_ENABLE"], "0");
  EXPECT_EQ(doc["environment"]["variables"]["NCCL_API_TOKEN"], "<redacted>");
  EXPECT_EQ(doc.dump().find("s3cret"), std::string::npos);
  // The downtrained link surfaces as a top-level note, next to the P18 EFA note.
  bool p16 = false;
  for (const auto& note : doc["notes"]) p16 = p16 || note["id"] == "P16";
  EXPECT_TRUE(p16);

  const std::string summary = summarize(doc);
  EXPECT_NE(summary.find("h200-sxm-x2-nv18"), std::string::npos) << summary;
  EXPECT_NE(summary.find("2 x NVIDIA H200"), std::string::npos) << summary;
  EXPECT_NE(summary.find("[P16]"), std::string::npos) << summary;
}

TEST(fingerprint_document, NoGpuNoRdmaStillSucceeds) {
  const RecordedGpuQuery gpus([] {
    GpuInventory none;
    none.reason = "NVML not found: libnvidia-ml.so.1: cannot open shared object file";
    return none;
  }());
  FakeMachine machine(&gpus);
  machine.options.fi_info_program = "fabricgate-no-such-fi_info";
  std::filesystem::remove_all(machine.tree.root() / "sys");
  const json doc = collect(machine.options);
  expect_schema(doc);
  EXPECT_FALSE(doc["gpus"]["available"].get<bool>());
  EXPECT_EQ(doc["gpus"]["reason"],
            "NVML not found: libnvidia-ml.so.1: cannot open shared object file");
  EXPECT_TRUE(doc["gpus"]["devices"].empty());
  EXPECT_EQ(doc["platform_key"], "cpu-amd-epyc-9b14-c2");
  EXPECT_EQ(doc["identity"]["gpu_count"], 0);
  EXPECT_EQ(doc["identity"]["rdma_devices"], 0);
  EXPECT_FALSE(doc["rdma"]["ibverbs"]["reason"].get<std::string>().empty());
  EXPECT_FALSE(doc["rdma"]["libfabric"]["reason"].get<std::string>().empty());
  EXPECT_NE(summarize(doc).find("gpus      none (NVML not found"), std::string::npos);
}

TEST(fingerprint_document, RecordedH200DocumentSummarizesAndMatchesDerivation) {
  const json recorded =
      load_json_file(FABRICGATE_SOURCE_DIR "/tests/unit/fingerprint/data/h200x2_fingerprint.json",
                     kFingerprintSchema);
  expect_schema(recorded);
  // What the real machine produced equals what the hand-built inventory derives.
  const RecordedGpuQuery gpus(testing::h200_x2());
  FakeMachine machine(&gpus);
  const json derived = collect(machine.options);
  EXPECT_EQ(recorded["platform_key"], derived["platform_key"]);
  EXPECT_EQ(recorded["identity"]["gpu_topology"], derived["identity"]["gpu_topology"]);
  EXPECT_EQ(recorded["gpus"]["topology"]["matrix"], derived["gpus"]["topology"]["matrix"]);
  EXPECT_EQ(recorded["gpus"]["devices"][0]["nvlink"]["aggregate_GBps_per_direction"], 450.0);
  const std::string summary = summarize(recorded);
  EXPECT_NE(summary.find("NV18"), std::string::npos) << summary;
  EXPECT_NE(summary.find("450 GB/s per direction"), std::string::npos) << summary;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::fingerprint
