#include "harness/fingerprint/host_facts.hpp"
#include "harness/fingerprint/machine_identity.hpp"

#include <gnu/libc-version.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

#include "harness/fingerprint/text_files.hpp"

namespace fabricgate::fingerprint {

namespace {

// "model name\t: Intel(R) Xeon(R) ..." -> ("model name", "Intel(R) Xeon(R) ...").
std::pair<std::string, std::string> split_field(const std::string& line) {
  const auto colon = line.find(':');
  if (colon == std::string::npos) return {trim(line), ""};
  return {trim(line.substr(0, colon)), trim(line.substr(colon + 1))};
}

void read_cpuinfo(const std::filesystem::path& root, HostFacts& host) {
  const auto text = read_text(under_root(root, "/proc/cpuinfo"), 4 * 1024 * 1024);
  if (!text) return;
  std::istringstream in(*text);
  std::string line;
  std::string physical_id = "0";
  std::set<std::string> sockets;
  std::set<std::pair<std::string, std::string>> cores;
  std::string fallback_model;  // Arm kernels have no "model name"
  while (std::getline(in, line)) {
    const auto [key, value] = split_field(line);
    if (key == "processor") {
      ++host.logical_cores;
    } else if (key == "model name" && host.cpu_model.empty()) {
      host.cpu_model = value;
    } else if ((key == "Hardware" || key == "cpu model" || key == "uarch") &&
               fallback_model.empty()) {
      fallback_model = value;
    } else if (key == "physical id") {
      physical_id = value;
      sockets.insert(value);
    } else if (key == "core id") {
      cores.insert({physical_id, value});
    }
  }
  if (host.cpu_model.empty()) host.cpu_model = fallback_model;
  host.sockets = sockets.empty() ? 1U : static_cast<unsigned>(sockets.size());
  host.physical_cores = cores.empty() ? host.logical_cores : static_cast<unsigned>(cores.size());
}

unsigned count_numa_nodes(const std::filesystem::path& root) {
  std::error_code ec;
  const auto dir = under_root(root, "/sys/devices/system/node");
  unsigned count = 0;
  static const std::regex node_name("node[0-9]+");
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (std::regex_match(entry.path().filename().string(), node_name)) ++count;
  }
  return count == 0 ? 1U : count;  // a kernel without NUMA support is one node
}

unsigned long long mem_total(const std::filesystem::path& root) {
  const auto text = read_text(under_root(root, "/proc/meminfo"));
  if (!text) return 0;
  std::smatch match;
  if (std::regex_search(*text, match, std::regex(R"(MemTotal:\s+([0-9]+)\s*kB)"))) {
    return std::stoull(match[1].str()) * 1024ULL;
  }
  return 0;
}

}  // namespace

std::string os_release_field(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + "=", 0) != 0) continue;
    std::string value = trim(line.substr(key.size() + 1));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    return value;
  }
  return {};
}

HostFacts read_host_facts(const std::filesystem::path& root) {
  HostFacts host;
  host.hostname = read_trimmed(under_root(root, "/proc/sys/kernel/hostname")).value_or("");
  if (host.hostname.empty() && root == "/") {
    std::array<char, 256> name{};
    if (gethostname(name.data(), name.size() - 1) == 0) host.hostname = name.data();
  }
  read_cpuinfo(root, host);
  if (host.logical_cores == 0 && root == "/") {
    host.logical_cores = static_cast<unsigned>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
    host.physical_cores = host.logical_cores;
  }
  host.numa_nodes = count_numa_nodes(root);
  host.memory_bytes = mem_total(root);
  for (const char* file : {"/etc/os-release", "/usr/lib/os-release"}) {
    if (const auto text = read_text(under_root(root, file))) {
      host.os_pretty_name = os_release_field(*text, "PRETTY_NAME");
      host.os_id = os_release_field(*text, "ID");
      host.os_version_id = os_release_field(*text, "VERSION_ID");
      break;
    }
  }
  host.kernel_release = read_trimmed(under_root(root, "/proc/sys/kernel/osrelease")).value_or("");
  host.kernel_version = read_trimmed(under_root(root, "/proc/sys/kernel/version")).value_or("");
  utsname uts{};
  if (uname(&uts) == 0) {
    host.machine = uts.machine;
    if (host.kernel_release.empty()) host.kernel_release = uts.release;
  }
  host.glibc = gnu_get_libc_version();
  const MachineIdentity machine = read_machine_identity(root);
  host.machine_id = machine.id;
  host.machine_id_source = machine.source;
  return host;
}

json to_json(const HostFacts& host) {
  return {{"hostname", host.hostname},
          {"cpu_model", host.cpu_model},
          {"machine_id", host.machine_id},
          {"machine_id_source", host.machine_id_source},
          {"logical_cores", host.logical_cores},
          {"physical_cores", host.physical_cores},
          {"sockets", host.sockets},
          {"numa_nodes", host.numa_nodes},
          {"memory_bytes", host.memory_bytes},
          {"os",
           {{"pretty_name", host.os_pretty_name},
            {"id", host.os_id},
            {"version_id", host.os_version_id}}},
          {"kernel",
           {{"release", host.kernel_release},
            {"version", host.kernel_version},
            {"machine", host.machine}}},
          {"glibc", host.glibc}};
}

}  // namespace fabricgate::fingerprint
