#pragma once
// Host facts: who we are and what the CPU side looks like. Read from /proc, /sys and /etc under a
// root directory (tests use a fake tree), plus the running process's uname and glibc.
#include <filesystem>
#include <string>

#include "core/json_file.hpp"

namespace fabricgate::fingerprint {

struct HostFacts {
  std::string hostname;
  std::string cpu_model;        // "AMD EPYC 9B14 96-Core Processor"
  unsigned logical_cores = 0;   // processors the kernel lists
  unsigned physical_cores = 0;  // distinct (socket, core id); = logical when not reported
  unsigned sockets = 0;
  unsigned numa_nodes = 0;
  unsigned long long memory_bytes = 0;
  std::string os_pretty_name;  // /etc/os-release PRETTY_NAME
  std::string os_id;
  std::string os_version_id;
  std::string kernel_release;
  std::string kernel_version;
  std::string machine;  // x86_64, aarch64
  std::string glibc;    // gnu_get_libc_version()
  // What tells this machine from other runners of its kind (machine_identity.hpp): a hash, never
  // the raw identifier, and where it came from.
  std::string machine_id;
  std::string machine_id_source;
};

HostFacts read_host_facts(const std::filesystem::path& root);
json to_json(const HostFacts& host);

// Fields of an os-release file; value unquoted. "" when absent.
std::string os_release_field(const std::string& text, const std::string& key);

}  // namespace fabricgate::fingerprint
