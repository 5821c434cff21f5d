#include "bench/backends/libfabric/fi_endpoint.hpp"
#include "bench/backends/libfabric/libfabric_backend.hpp"

#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace fabricgate::bench::fi {

namespace {

void check(const char* call, long rc) {
  if (rc != 0) throw std::runtime_error(fi_error(call, rc));
}

char* dup(const std::string& s) { return s.empty() ? nullptr : strdup(s.c_str()); }

// The memory-registration modes we handle (and so may advertise): local descriptors, virtual
// addresses, provider keys, endpoint-bound MRs. Not FI_MR_RAW (keys wider than 64 bits).
constexpr std::uint64_t kMrModes =
    FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;

}  // namespace

std::string fi_error(const char* call, long rc) {
  const long positive = rc < 0 ? -rc : rc;
  return std::string("libfabric ") + call + ": " + fi_strerror(static_cast<int>(positive)) + " (" +
         std::to_string(rc) + ")";
}

InfoPtr find_info(const EndpointRequest& request, std::string& why_not) {
  InfoPtr hints(fi_allocinfo());
  if (!hints) throw std::runtime_error("libfabric fi_allocinfo: out of memory");
  hints->ep_attr->type = FI_EP_RDM;
  hints->caps = FI_MSG |
                (request.rma ? FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE : 0) |
                (request.hmem ? FI_HMEM : 0);
  // Every operation passes its own fi_context2 (the channels keep one per operation in flight).
  hints->mode = FI_CONTEXT | FI_CONTEXT2;
  hints->domain_attr->mr_mode = static_cast<int>(kMrModes | (request.hmem ? FI_MR_HMEM : 0));
  hints->domain_attr->threading = FI_THREAD_DOMAIN;  // one thread drives everything
  // "env": no name hint; libfabric itself only offers the providers FI_PROVIDER lets through.
  const bool from_environment = request.provider == kProviderFromEnvironment;
  const char* fi_provider = std::getenv("FI_PROVIDER");
  if (from_environment && (fi_provider == nullptr || *fi_provider == '\0')) {
    why_not = "provider \"env\" takes the provider from FI_PROVIDER, which is not set";
    return nullptr;
  }
  hints->fabric_attr->prov_name = from_environment ? nullptr : dup(request.provider);
  fi_info* found = nullptr;
  // FI_HMEM and fi_mr_attr.iface are API 1.10; host-memory requests keep the 1.9 they were
  // measured with, so a provider's choice for them does not move with this change.
  const int rc = fi_getinfo(request.hmem ? FI_VERSION(1, 10) : FI_VERSION(1, 9), nullptr, nullptr,
                            0, hints.get(), &found);
  if (rc == -FI_ENODATA || (rc == 0 && !found)) {
    why_not = "libfabric provider \"" + request.provider + "\" offers no RDM endpoint with FI_MSG" +
              (request.rma ? "+FI_RMA" : "") + (request.hmem ? "+FI_HMEM (GPU memory)" : "") +
              (request.domain.empty() ? std::string() : " in domain \"" + request.domain + "\"");
    return nullptr;
  }
  check("fi_getinfo", rc);
  // Keep the first match (the one the provider ranks best) in the requested domain. The domain
  // hint is not enough: layered providers (tcp;ofi_rxm) list every interface whatever it says.
  const fi_info* pick = nullptr;
  for (const fi_info* i = found; i && !pick; i = i->next) {
    if (request.domain.empty() || (i->domain_attr->name && request.domain == i->domain_attr->name))
      pick = i;
  }
  if (!pick) {
    fi_freeinfo(found);
    why_not =
        "libfabric provider \"" + request.provider + "\" has no domain \"" + request.domain + "\"";
    return nullptr;
  }
  InfoPtr first(fi_dupinfo(pick));
  fi_freeinfo(found);
  if (!first) throw std::runtime_error("libfabric fi_dupinfo: out of memory");
  return first;
}

Endpoint::Endpoint(InfoPtr info) : info_(std::move(info)) {
  fid_fabric* fabric = nullptr;
  check("fi_fabric", fi_fabric(info_->fabric_attr, &fabric, nullptr));
  fabric_.reset(fabric);
  fid_domain* domain = nullptr;
  check("fi_domain", fi_domain(fabric_.get(), info_.get(), &domain, nullptr));
  domain_.reset(domain);

  fi_cq_attr cq_attr{};
  cq_attr.format = FI_CQ_FORMAT_CONTEXT;
  cq_attr.wait_obj = FI_WAIT_NONE;  // we poll: a wait object would only add latency
  fid_cq* cq = nullptr;
  check("fi_cq_open", fi_cq_open(domain_.get(), &cq_attr, &cq, nullptr));
  cq_.reset(cq);

  fi_av_attr av_attr{};
  av_attr.type = info_->domain_attr->av_type;
  fid_av* av = nullptr;
  check("fi_av_open", fi_av_open(domain_.get(), &av_attr, &av, nullptr));
  av_.reset(av);

  fid_ep* ep = nullptr;
  check("fi_endpoint", fi_endpoint(domain_.get(), info_.get(), &ep, nullptr));
  ep_.reset(ep);
  check("fi_ep_bind(av)", fi_ep_bind(ep_.get(), &av_->fid, 0));
  check("fi_ep_bind(cq)", fi_ep_bind(ep_.get(), &cq_->fid, FI_TRANSMIT | FI_RECV));
  check("fi_enable", fi_enable(ep_.get()));
}

Endpoint::~Endpoint() = default;

std::string Endpoint::address() const {
  std::string name(256, '\0');
  std::size_t len = name.size();
  long rc = fi_getname(&ep_->fid, name.data(), &len);
  if (rc == -FI_ETOOSMALL) {
    name.resize(len);
    rc = fi_getname(&ep_->fid, name.data(), &len);
  }
  check("fi_getname", rc);
  name.resize(len);
  return name;
}

fi_addr_t Endpoint::insert_peer(const std::string& address) {
  fi_addr_t addr = FI_ADDR_UNSPEC;
  const int n = fi_av_insert(av_.get(), address.data(), 1, &addr, 0, nullptr);
  if (n != 1) throw std::runtime_error(fi_error("fi_av_insert", n < 0 ? n : -FI_EINVAL));
  return addr;
}

void Endpoint::register_buffer(void* data, std::size_t bytes, std::uint64_t requested_key,
                               int cuda_device) {
  const std::uint64_t access =
      FI_SEND | FI_RECV | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
  fid_mr* mr = nullptr;
  if (cuda_device < 0) {
    check("fi_mr_reg",
          fi_mr_reg(domain_.get(), data, bytes, access, 0, requested_key, 0, &mr, nullptr));
  } else {
    // GPU memory: the provider must be told whose memory it is (FI_HMEM_CUDA, which device).
    iovec iov{data, bytes};
    fi_mr_attr attr{};
    attr.mr_iov = &iov;
    attr.iov_count = 1;
    attr.access = access;
    attr.requested_key = requested_key;
    attr.iface = FI_HMEM_CUDA;
    attr.device.cuda = cuda_device;
    check("fi_mr_regattr(FI_HMEM_CUDA)", fi_mr_regattr(domain_.get(), &attr, 0, &mr));
  }
  mr_.reset(mr);
  buffer_ = data;
  if (info_->domain_attr->mr_mode & FI_MR_ENDPOINT) {
    check("fi_mr_bind", fi_mr_bind(mr_.get(), &ep_->fid, 0));
    check("fi_mr_enable", fi_mr_enable(mr_.get()));
  }
}

RemoteBuffer Endpoint::remote_view() const {
  RemoteBuffer view;
  view.key = mr_ ? fi_mr_key(mr_.get()) : 0;
  const bool virt = (info_->domain_attr->mr_mode & FI_MR_VIRT_ADDR) != 0;
  view.address = virt ? reinterpret_cast<std::uintptr_t>(buffer_) : 0;
  return view;
}

}  // namespace fabricgate::bench::fi
