#include "bench/backends/verbs/verbs_device.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace fabricgate::bench::verbs {

namespace {

struct DeviceList {
  ibv_device** list = nullptr;
  int count = 0;
  DeviceList() { list = ibv_get_device_list(&count); }
  ~DeviceList() {
    if (list) ibv_free_device_list(list);
  }
  DeviceList(const DeviceList&) = delete;
  DeviceList& operator=(const DeviceList&) = delete;
};

}  // namespace

std::string verbs_error(const char* call, int err) {
  return std::string(call) + ": " + std::strerror(err) + " (errno " + std::to_string(err) + ")";
}

std::unique_ptr<Device> Device::open(const DeviceRequest& request, std::string& skip) {
  const DeviceList devices;
  // NULL (no kernel support, ENOSYS) and an empty list mean the same thing here.
  if (!devices.list || devices.count == 0) {
    skip = "no RDMA device";
    return nullptr;
  }
  ibv_device* chosen = nullptr;
  std::string names;
  for (int i = 0; i < devices.count; ++i) {
    const char* n = ibv_get_device_name(devices.list[i]);
    names += (names.empty() ? "" : ", ") + std::string(n);
    if (!chosen && (request.device == "any" || request.device == n)) chosen = devices.list[i];
  }
  if (!chosen) {
    skip = "no RDMA device named \"" + request.device + "\" (found: " + names + ")";
    return nullptr;
  }
  std::unique_ptr<Device> d(new Device());
  d->name_ = ibv_get_device_name(chosen);
  d->port_ = request.port;
  d->ctx_ = ibv_open_device(chosen);
  if (!d->ctx_) throw std::runtime_error(verbs_error("ibv_open_device", errno));
  if (const int rc = ibv_query_device(d->ctx_, &d->device_attr_))
    throw std::runtime_error(verbs_error("ibv_query_device", rc));
  if (request.port > d->device_attr_.phys_port_cnt) {
    skip = d->name_ + " has " + std::to_string(d->device_attr_.phys_port_cnt) +
           " port(s), not port " + std::to_string(request.port);
    return nullptr;
  }
  if (const int rc =
          ibv_query_port(d->ctx_, static_cast<std::uint8_t>(request.port), &d->port_attr_)) {
    throw std::runtime_error(verbs_error("ibv_query_port", rc));
  }
  if (d->port_attr_.state != IBV_PORT_ACTIVE) {
    skip = "port " + std::to_string(request.port) + " of " + d->name_ + " is not active (" +
           ibv_port_state_str(d->port_attr_.state) + ")";
    return nullptr;
  }
  // RoCE has no LIDs: it needs a GID (index 0 unless the suite names one).
  d->gid_index_ = request.gid_index;
  if (d->gid_index_ < 0 && d->port_attr_.link_layer == IBV_LINK_LAYER_ETHERNET) d->gid_index_ = 0;
  if (d->gid_index_ >= 0) {
    if (const int rc = ibv_query_gid(d->ctx_, static_cast<std::uint8_t>(request.port),
                                     d->gid_index_, &d->gid_)) {
      throw std::runtime_error(verbs_error("ibv_query_gid", rc));
    }
  }
  d->pd_ = ibv_alloc_pd(d->ctx_);
  if (!d->pd_) throw std::runtime_error(verbs_error("ibv_alloc_pd", errno));
  return d;
}

ibv_mr* Device::register_host(void* data, std::size_t bytes) {
  mr_ = ibv_reg_mr(pd_, data, bytes,
                   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
  if (!mr_) throw std::runtime_error(verbs_error("ibv_reg_mr", errno));
  return mr_;
}

ibv_mr* Device::register_dmabuf(int fd, std::uint64_t offset, std::size_t bytes, void* address) {
  mr_ =
      ibv_reg_dmabuf_mr(pd_, offset, bytes, reinterpret_cast<std::uintptr_t>(address), fd,
                        IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
  if (!mr_) throw std::runtime_error(verbs_error("ibv_reg_dmabuf_mr", errno));
  return mr_;
}

Device::~Device() {
  if (mr_) ibv_dereg_mr(mr_);
  if (pd_) ibv_dealloc_pd(pd_);
  if (ctx_) ibv_close_device(ctx_);
}

}  // namespace fabricgate::bench::verbs
