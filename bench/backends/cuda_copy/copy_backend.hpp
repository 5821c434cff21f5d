#pragma once
// GPU copies for the p2p and hostcopy families (nvbandwidth's measurements), behind a vendor-free
// interface: the fixtures include only this header. The CUDA build implements it in this folder;
// without CUDA, copy_unavailable.cpp says why nothing can run.
//
// One process drives every GPU it sees (a P2P pair needs both devices in one process), so these
// ops are meant for rank 0 only; the families give other ranks an idle op (bench/fixtures/p2p).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench/engine/measured_op.hpp"

namespace fabricgate::bench {

struct CopyDeviceInfo {
  std::string name;
  std::string pci_bus_id;  // "0000:19:00.0", lower case (the form /sys/bus/pci/devices uses)
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  // One entry per active NVLink: the remote end's PCI bus id in the same form (a peer GPU or an
  // NVSwitch), "" when NVML could not say. Empty when the GPU has no active NVLink or NVML is
  // absent.
  std::vector<std::string> nvlink_remotes;
};

struct CopyPlatform {
  std::vector<CopyDeviceInfo> devices;
  std::vector<std::vector<bool>> peer_access;  // [i][j]: device i can map device j's memory
  std::string why_no_gpu;                      // set when `devices` is empty
  std::string nvml_reason;                     // set when NVLink counts are unknown (no NVML)
};

// Asks the CUDA runtime (and NVML, dlopened, for NVLink) what this process sees. Never throws.
CopyPlatform query_copy_platform();

enum class CopyEngine { ce, sm };  // copy engine (cudaMemcpyAsync) or SM (a copy kernel)
enum class HostMemory { pinned, pageable };

constexpr int kHostMemory = -1;  // a Transfer endpoint in host memory

// Copies queued per stream behind one hold. A stream accepts only so much queued work before the
// host blocks in the next call (and a held stream would never be released), so the families keep
// operations per sample at or below this.
constexpr int kMaxQueuedCopiesPerStream = 128;

// One copy stream: `bytes` from src to dst, issued by exec_device (its copy engine or its SMs).
// P2P write: exec = src (the source pushes); read: exec = dst (the destination pulls).
struct Transfer {
  int src = 0;
  int dst = 0;
  int exec = 0;
};

struct CopyRequest {
  CopyEngine engine = CopyEngine::ce;
  std::vector<Transfer> transfers;  // all run at the same time, each on its own stream
  std::uint64_t bytes = 0;          // per transfer
  HostMemory host_memory = HostMemory::pinned;
  // CPUs of the GPU's NUMA node: host buffers are allocated and first touched by a thread bound
  // to them (the kernel's default local policy then places the pages on that node). Empty: no
  // binding.
  std::vector<int> host_cpus;
  // Called on the host while a batch's copies run (e.g. to read the PCIe link state under load).
  std::function<void()> while_busy;
};

// Creates the op, allocating and enabling peer access. nullptr with `skip_reason` when it cannot
// run here (no such GPU, no peer access for SM copies, out of memory). Throws InfraError on a
// device error.
std::unique_ptr<MeasuredOp> make_copy_op(const CopyRequest& request, std::string& skip_reason);

// Latency of a dependent 8-byte load chain run by one thread on `exec_device` through memory on
// `memory_device` (a pointer chase): one operation = one load, so time_us is the load latency.
std::unique_ptr<MeasuredOp> make_pointer_chase_op(int exec_device, int memory_device,
                                                  std::string& skip_reason);

}  // namespace fabricgate::bench
