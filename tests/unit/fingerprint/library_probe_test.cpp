// Version decoding for NCCL, CUDA and MPI, dlopen failure reasons, NCCL config files.
#include "harness/fingerprint/library_probe.hpp"

#include <gtest/gtest.h>

#include "fake_tree.hpp"

namespace fabricgate::fingerprint {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(fingerprint_library_probe, NcclVersionCodes) {
  EXPECT_EQ(nccl_version_name(22803), "2.28.3");
  EXPECT_EQ(nccl_version_name(21903), "2.19.3");
  EXPECT_EQ(nccl_version_name(2804), "2.8.4");  // pre-2.9 encoding
  EXPECT_EQ(nccl_version_name(0), "");
}

TEST(fingerprint_library_probe, CudaVersionCodes) {
  EXPECT_EQ(cuda_version_name(13000), "13.0");
  EXPECT_EQ(cuda_version_name(12040), "12.4");
  EXPECT_EQ(cuda_version_name(11080), "11.8");
  EXPECT_EQ(cuda_version_name(0), "");
}

TEST(fingerprint_library_probe, MpiShortVersion) {
  EXPECT_EQ(mpi_short_version("Open MPI v4.1.6, package: Debian OpenMPI, ident: 4.1.6, repo rev: "
                              "v4.1.6, Sep 30, 2023"),
            "Open MPI 4.1.6");
  EXPECT_EQ(mpi_short_version("MPICH Version:\t4.1.2\nMPICH Release date:\tunreleased\n"),
            "MPICH 4.1.2");
  EXPECT_EQ(mpi_short_version("Intel(R) MPI Library 2021.10 for Linux* OS\n"), "Intel MPI 2021.10");
  EXPECT_EQ(mpi_short_version("Some MPI 1.0\nsecond line"), "Some MPI 1.0");
}

TEST(fingerprint_library_probe, MissingLibrariesGiveDlerrorReason) {
  const auto nccl = probe_nccl("libfabricgate-no-such-nccl.so.2");
  EXPECT_FALSE(nccl.available);
  EXPECT_NE(nccl.reason.find("libfabricgate-no-such-nccl.so.2"), std::string::npos) << nccl.reason;
  EXPECT_EQ(nccl.version, "");
  const auto mpi = probe_mpi("libfabricgate-no-such-mpi.so.40");
  EXPECT_FALSE(mpi.available);
  EXPECT_FALSE(mpi.reason.empty());
  const auto cudart = probe_cuda_runtime({"libfabricgate-no-such-cudart.so"});
  EXPECT_FALSE(cudart.available);
  EXPECT_NE(cudart.reason.find("no loadable CUDA runtime"), std::string::npos);
  // A library that loads but lacks the entry point: libc has no ncclGetVersion.
  const auto wrong = probe_nccl("libc.so.6");
  EXPECT_FALSE(wrong.available);
  EXPECT_NE(wrong.reason.find("ncclGetVersion"), std::string::npos) << wrong.reason;
}

TEST(fingerprint_library_probe, NcclConfigFiles) {
  testing::FakeTree tree;
  EXPECT_TRUE(nccl_config_files(tree.root(), (tree.root() / "home").string()).empty());
  tree.write("etc/nccl.conf", "NCCL_IB_HCA=mlx5\n");
  tree.write("home/.nccl.conf", "NCCL_DEBUG=INFO\n");
  const json files = nccl_config_files(tree.root(), (tree.root() / "home").string());
  ASSERT_EQ(files.size(), 2U);
  EXPECT_EQ(files[0]["contents"], "NCCL_IB_HCA=mlx5\n");
  EXPECT_EQ(files[1]["contents"], "NCCL_DEBUG=INFO\n");
  EXPECT_NE(files[1]["path"].get<std::string>().find(".nccl.conf"), std::string::npos);
  EXPECT_EQ(nccl_config_files(tree.root(), "").size(), 1U);  // no HOME: only /etc
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::fingerprint
