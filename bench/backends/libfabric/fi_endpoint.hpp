#pragma once
// One RDM endpoint with everything it needs (fabric, domain, completion queue, address vector)
// and one registered buffer, closed in the right order by RAII. libfabric headers stay in this
// folder.
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

#include <cstdint>
#include <memory>
#include <string>

namespace fabricgate::bench::fi {

// fi_close for any fid-bearing object.
struct FidCloser {
  template <class T>
  void operator()(T* obj) const {
    if (obj) fi_close(&obj->fid);
  }
};
template <class T>
using FidPtr = std::unique_ptr<T, FidCloser>;

struct InfoDeleter {
  void operator()(fi_info* info) const { fi_freeinfo(info); }
};
using InfoPtr = std::unique_ptr<fi_info, InfoDeleter>;

struct EndpointRequest {
  std::string provider;  // prov_name hint
  std::string domain;    // domain name hint (empty: any)
  bool rma = false;      // FI_RMA with read and write
  bool hmem = false;     // FI_HMEM
};

// "libfabric fi_domain: Invalid argument (-22)"
std::string fi_error(const char* call, long rc);

// What fi_getinfo offers for the request; nullptr with `why_not` when nothing matches.
InfoPtr find_info(const EndpointRequest& request, std::string& why_not);

struct RemoteBuffer {
  std::uint64_t address =
      0;  // what RMA calls take: a virtual address or an offset (FI_MR_VIRT_ADDR)
  std::uint64_t key = 0;
};

class Endpoint {
 public:
  // Opens the objects for `info` (throws std::runtime_error on library errors).
  explicit Endpoint(InfoPtr info);
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;
  ~Endpoint();

  const fi_info& info() const { return *info_; }
  fid_ep* ep() const { return ep_.get(); }
  fid_cq* cq() const { return cq_.get(); }
  // This endpoint's address (fi_getname), as raw bytes.
  std::string address() const;
  fi_addr_t insert_peer(const std::string& address);

  // Registers [data, data + bytes) for local use and remote read/write (once per endpoint); host
  // memory, or GPU memory of CUDA device `cuda_device` (>= 0, needs an FI_HMEM endpoint).
  void register_buffer(void* data, std::size_t bytes, std::uint64_t requested_key,
                       int cuda_device = -1);
  void* descriptor() const { return mr_ ? fi_mr_desc(mr_.get()) : nullptr; }
  // How a peer addresses our buffer for RMA.
  RemoteBuffer remote_view() const;

 private:
  InfoPtr info_;
  FidPtr<fid_fabric> fabric_;
  FidPtr<fid_domain> domain_;
  FidPtr<fid_cq> cq_;
  FidPtr<fid_av> av_;
  FidPtr<fid_mr> mr_;
  FidPtr<fid_ep> ep_;  // closed first: nothing may still be in flight on the others
  void* buffer_ = nullptr;
};

}  // namespace fabricgate::bench::fi
