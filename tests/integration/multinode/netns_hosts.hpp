#pragma once
// Two emulated hosts on one machine: three Linux network namespaces made by the test, torn down
// by the destructor whatever happens.
//
//   fgh-<tag>   the hub: bridge "fgbr" 10.251.0.1/24; mpirun runs here (the "login node")
//   fgn0-<tag>  host fgnode0: "fgeth0" 10.251.0.10/24, a veth whose peer is a bridge port
//   fgn1-<tag>  host fgnode1: "fgeth0" 10.251.0.11/24
//
// Both hosts name their interface "fgeth0", so one libfabric domain in a suite fits both, as a
// cluster's identically named NICs do. Traffic stays inside these namespaces. Needs root
// (CAP_SYS_ADMIN and CAP_NET_ADMIN); ok() is false where namespaces cannot be made.
#include <string>
#include <vector>

namespace fabricgate::testing {

class NetnsHosts {
 public:
  static constexpr int kHosts = 2;
  static constexpr const char* kSubnet = "10.251.0.0/24";
  static constexpr const char* kInterface = "fgeth0";

  explicit NetnsHosts(const std::string& tag);
  ~NetnsHosts();
  NetnsHosts(const NetnsHosts&) = delete;
  NetnsHosts& operator=(const NetnsHosts&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }  // the step that failed, with its output
  const std::string& hub() const { return hub_; }
  const std::string& host_namespace(int i) const { return hosts_[static_cast<std::size_t>(i)]; }
  static std::string host_name(int i) { return "fgnode" + std::to_string(i); }
  static std::string host_address(int i) { return "10.251.0.1" + std::to_string(i); }

  // "fgnode0=fgn0-<tag> fgnode1=fgn1-<tag>": FABRICGATE_NETNS_HOSTS for ci/netns/netns-agent.
  std::string agent_map() const;
  // Bytes host i's interface has received so far; -1 when it cannot be read.
  long long received_bytes(int i) const;

 private:
  bool step(const std::vector<std::string>& argv);

  std::string hub_;
  std::vector<std::string> hosts_;
  std::string error_;
};

}  // namespace fabricgate::testing
