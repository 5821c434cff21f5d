#pragma once
// An opened RDMA device: context, protection domain, the chosen port and GID, and a registered
// buffer, released in order by RAII. libibverbs headers stay in this folder.
#include <infiniband/verbs.h>

#include <cstdint>
#include <memory>
#include <string>

namespace fabricgate::bench::verbs {

// "ibv_create_qp: Cannot allocate memory (errno 12)"
std::string verbs_error(const char* call, int err);

struct DeviceRequest {
  std::string device = "any";
  int port = 1;
  int gid_index = -1;
};

class Device {
 public:
  // nullptr with `skip` when there is no usable device or port ("no RDMA device"); throws
  // std::runtime_error on verbs errors.
  static std::unique_ptr<Device> open(const DeviceRequest& request, std::string& skip);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  ibv_context* context() const { return ctx_; }
  ibv_pd* pd() const { return pd_; }
  const std::string& name() const { return name_; }
  int port() const { return port_; }
  const ibv_port_attr& port_attr() const { return port_attr_; }
  const ibv_device_attr& device_attr() const { return device_attr_; }
  int gid_index() const { return gid_index_; }  // -1: LID addressing
  const ibv_gid& gid() const { return gid_; }
  bool is_efa() const { return name_.rfind("efa", 0) == 0; }

  // Registers memory for local and remote read/write (once per device): host memory, or GPU
  // memory through a peer-memory client (nvidia-peermem) that makes ibv_reg_mr take GPU pointers.
  ibv_mr* register_host(void* data, std::size_t bytes);
  // GPU memory as a dmabuf: bytes [offset, offset + bytes) of `fd`, addressed as `address` in work
  // requests (the GPU pointer). Throws std::runtime_error when the NIC or kernel refuses.
  ibv_mr* register_dmabuf(int fd, std::uint64_t offset, std::size_t bytes, void* address);

 private:
  Device() = default;
  ibv_context* ctx_ = nullptr;
  ibv_pd* pd_ = nullptr;
  ibv_mr* mr_ = nullptr;
  std::string name_;
  int port_ = 1;
  ibv_port_attr port_attr_{};
  ibv_device_attr device_attr_{};
  int gid_index_ = -1;
  ibv_gid gid_{};
};

}  // namespace fabricgate::bench::verbs
