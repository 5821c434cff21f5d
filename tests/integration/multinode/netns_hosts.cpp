#include "netns_hosts.hpp"

#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <cstdlib>
#include <sstream>

#include "core/json_file.hpp"
#include "harness/fingerprint/subprocess.hpp"

namespace fabricgate::testing {

namespace {

// Every ip command is an argument vector (no shell) with a deadline.
fingerprint::ProgramResult ip(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"ip"};
  argv.insert(argv.end(), args.begin(), args.end());
  return fingerprint::run_program(argv, 1 << 20, std::chrono::seconds(10));
}

// Kills what still runs inside a namespace of ours (an orted or rank left by a failed run would
// keep the namespace and its veth alive after `ip netns del`), then deletes it.
void remove_namespace(const std::string& ns) {
  const auto pids = ip({"netns", "pids", ns});
  std::istringstream lines(pids.out);
  int n = 0;
  for (std::string line; std::getline(lines, line) && n < 4096; ++n) {
    const pid_t pid = static_cast<pid_t>(std::atol(line.c_str()));
    if (pid > 1) ::kill(pid, SIGKILL);
  }
  ip({"netns", "del", ns});
}

}  // namespace

NetnsHosts::NetnsHosts(const std::string& tag) : hub_("fgh-" + tag) {
  for (int i = 0; i < kHosts; ++i) hosts_.push_back("fgn" + std::to_string(i) + "-" + tag);
  // Namespaces of these names left by an earlier run that was killed (same pid, same tag).
  remove_namespace(hub_);
  for (const auto& ns : hosts_) remove_namespace(ns);

  if (!step({"netns", "add", hub_})) return;
  for (const auto& ns : hosts_) {
    if (!step({"netns", "add", ns})) return;
  }
  const std::vector<std::vector<std::string>> bridge = {
      {"-n", hub_, "link", "set", "lo", "up"},
      {"-n", hub_, "link", "add", "fgbr", "type", "bridge"},
      {"-n", hub_, "addr", "add", "10.251.0.1/24", "dev", "fgbr"},
      {"-n", hub_, "link", "set", "fgbr", "up"}};
  for (const auto& s : bridge) {
    if (!step(s)) return;
  }
  for (int i = 0; i < kHosts; ++i) {
    const std::string& ns = hosts_[static_cast<std::size_t>(i)];
    // Made in our own namespace under unique names (interface names are at most 15 characters),
    // then each end moved to where it belongs; the host end is renamed there.
    const std::string host_end = "fgv" + std::to_string(i) + "-" + tag;
    const std::string port = "fgp" + std::to_string(i) + "-" + tag;
    const std::vector<std::vector<std::string>> steps = {
        {"link", "add", host_end, "type", "veth", "peer", "name", port},
        {"link", "set", host_end, "netns", ns},
        {"link", "set", port, "netns", hub_},
        {"-n", hub_, "link", "set", port, "master", "fgbr"},
        {"-n", hub_, "link", "set", port, "up"},
        {"-n", ns, "link", "set", host_end, "name", kInterface},
        {"-n", ns, "addr", "add", host_address(i) + "/24", "dev", kInterface},
        {"-n", ns, "link", "set", kInterface, "up"},
        {"-n", ns, "link", "set", "lo", "up"}};
    for (const auto& s : steps) {
      if (!step(s)) return;
    }
  }
}

NetnsHosts::~NetnsHosts() {
  // Deleting a namespace deletes the veth ends in it, and so both ends of each pair.
  for (const auto& ns : hosts_) remove_namespace(ns);
  remove_namespace(hub_);
}

bool NetnsHosts::step(const std::vector<std::string>& argv) {
  const auto r = ip(argv);
  if (r.succeeded()) return true;
  std::string line;
  for (const auto& a : argv) line += " " + a;
  error_ = r.failure_text("ip" + line);  // "ip netns add fgh-1 exited with status 1: <stderr>"
  return false;
}

std::string NetnsHosts::agent_map() const {
  std::string map;
  for (int i = 0; i < kHosts; ++i) map += (i ? " " : "") + host_name(i) + "=" + host_namespace(i);
  return map;
}

long long NetnsHosts::received_bytes(int i) const {
  const auto r = ip({"-j", "-s", "-n", host_namespace(i), "link", "show", "dev", kInterface});
  if (!r.succeeded()) return -1;
  const json j = json::parse(r.out, nullptr, false);
  const auto bytes = "/0/stats64/rx/bytes"_json_pointer;
  return j.is_discarded() || !j.contains(bytes) ? -1 : j.at(bytes).get<long long>();
}

}  // namespace fabricgate::testing
