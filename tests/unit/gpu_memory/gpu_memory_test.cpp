// allocate_gpu_memory: a reason instead of a buffer when there is none to be had (every machine),
// and a real host <-> GPU round trip where a GPU exists (skipped on CPU-only machines).
#include <gtest/gtest.h>
#include <unistd.h>

#include <numeric>
#include <stdexcept>
#include <vector>

#include "bench/backends/cuda/gpu_memory.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(GpuMemory, NoDeviceGivesAReasonNotABuffer) {
  std::string reason;
  EXPECT_EQ(allocate_gpu_memory(-1, 4096, reason), nullptr);
  const std::string want = FABRICGATE_TEST_CUDA ? "no GPU on this rank" : "built without CUDA";
  EXPECT_NE(reason.find(want), std::string::npos) << reason;
}

TEST(GpuMemory, AbsentDeviceNumberIsAReasonNotACrash) {
  std::string reason;
  EXPECT_EQ(allocate_gpu_memory(4096, 4096, reason), nullptr);  // no machine has 4097 GPUs
  EXPECT_FALSE(reason.empty());
}

TEST(GpuMemory, RoundTripThroughTheGpu) {
  std::string reason;
  const auto gpu = allocate_gpu_memory(0, 1 << 20, reason);
  if (!gpu) GTEST_SKIP() << "no GPU memory here: " << reason;
  EXPECT_EQ(gpu->size(), 1u << 20);
  EXPECT_EQ(gpu->device(), 0);
  std::vector<unsigned char> in(1 << 20), out(1 << 20, 0);
  std::iota(in.begin(), in.end(), static_cast<unsigned char>(7));
  gpu->upload(0, in.data(), in.size());
  gpu->download(4096, out.data(), 8192);  // an inner range comes back from where it was put
  EXPECT_TRUE(std::equal(out.begin(), out.begin() + 8192, in.begin() + 4096));
  EXPECT_THROW(gpu->download((1 << 20) - 10, out.data(), 11), std::runtime_error);  // past the end
}

// What verbs registers (ibv_reg_dmabuf_mr): an fd whose pages hold the buffer, the buffer starting
// `offset` bytes in. Without dmabuf support in the driver it must say why instead.
TEST(GpuMemory, DmabufExportOrAReason) {
  std::string reason;
  const auto gpu = allocate_gpu_memory(0, 3 * 4096 + 100, reason);
  if (!gpu) GTEST_SKIP() << "no GPU memory here: " << reason;
  const GpuMemory::Dmabuf d = gpu->export_dmabuf(reason);
  if (d.fd < 0) {
    EXPECT_NE(reason.find("cuMemGetHandleForAddressRange"), std::string::npos) << reason;
    GTEST_SKIP() << "no dmabuf export here: " << reason;
  }
  EXPECT_LT(d.offset, 4096u);
  EXPECT_GE(::lseek(d.fd, 0, SEEK_END),
            static_cast<off_t>(d.offset + gpu->size()));  // a dmabuf's size
  ::close(d.fd);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
