// summarize(): the default `fabricgate fingerprint` output, a few lines a person reads in a CI
// log. Only reads the document (no probing), so it can also summarize a stored fingerprint.
#include <sstream>

#include "harness/fingerprint/fingerprint.hpp"

namespace fabricgate::fingerprint {

namespace {

std::string text_or(const json& doc, const char* pointer, const std::string& fallback) {
  const json::json_pointer ptr(pointer);
  if (!doc.contains(ptr) || !doc.at(ptr).is_string() || doc.at(ptr).get<std::string>().empty()) {
    return fallback;
  }
  return doc.at(ptr).get<std::string>();
}

std::string version_or_reason(const json& section) {
  if (section.value("available", false)) {
    const std::string path = section.value("path", "");
    return section.value("version", "") + (path.empty() ? "" : " (" + path + ")");
  }
  return "none (" + section.value("reason", "") + ")";
}

}  // namespace

std::string summarize(const json& fp) {
  std::ostringstream out;
  out << "platform  " << fp.value("platform_key", "") << " (" << fp.value("platform_key_source", "")
      << ")\n";
  const json& host = fp.at("host");
  out << "host      " << host.value("hostname", "") << ": " << host.value("cpu_model", "") << ", "
      << host.value("logical_cores", 0U) << " logical cores, " << host.value("numa_nodes", 0U)
      << " NUMA node(s), " << text_or(fp, "/host/os/pretty_name", "unknown OS") << ", kernel "
      << text_or(fp, "/host/kernel/release", "?") << ", glibc " << host.value("glibc", "") << "\n";
  const json& gpus = fp.at("gpus");
  if (gpus.value("available", false)) {
    out << "gpus      " << gpus.at("devices").size() << " x "
        << text_or(fp, "/identity/gpu_model", "?") << ", topology "
        << text_or(fp, "/identity/gpu_topology", "?") << ", driver "
        << gpus.value("driver_version", "") << ", CUDA driver "
        << gpus.value("cuda_driver_version", "") << ", CUDA runtime "
        << text_or(fp, "/versions/cuda_runtime", "none") << "\n";
    for (const auto& gpu : gpus.at("devices")) {
      const json& pcie = gpu.at("pcie");
      const json& nvlink = gpu.at("nvlink");
      out << "  gpu" << gpu.value("index", 0U) << "    " << gpu.value("pci_bus_id", "")
          << " PCIe Gen" << pcie.value("current_gen", 0U) << " x" << pcie.value("current_width", 0U)
          << " (max Gen" << pcie.value("max_gen", 0U) << " x" << pcie.value("max_width", 0U)
          << "), NVLink " << nvlink.value("active_links", 0U) << " active";
      if (nvlink.contains("aggregate_GBps_per_direction")) {
        out << " (" << nvlink.at("aggregate_GBps_per_direction").get<double>()
            << " GB/s per direction, published)";
      }
      if (gpu.at("numa_node").is_number()) out << ", NUMA " << gpu.at("numa_node").get<int>();
      out << "\n";
    }
  } else {
    out << "gpus      none (" << gpus.value("reason", "") << ")\n";
  }
  out << "nccl      " << version_or_reason(fp.at("nccl")) << "\n";
  out << "mpi       " << version_or_reason(fp.at("mpi")) << "\n";
  const json& rdma = fp.at("rdma");
  out << "rdma      " << rdma.value("rdma_device_count", 0U) << " device(s)";
  const json& verbs = rdma.at("ibverbs");
  out << "; ibverbs: " << verbs.value("device_count", 0U) << " in sysfs";
  if (!verbs.value("available", false)) out << " (" << verbs.value("reason", "") << ")";
  const json& libfabric = rdma.at("libfabric");
  out << "; libfabric: ";
  if (libfabric.value("available", false)) {
    out << libfabric.value("rdma_device_count", 0U) << " RDMA of "
        << libfabric.value("device_count", 0U) << " domain device(s)";
  } else {
    out << "none (" << libfabric.value("reason", "") << ")";
  }
  out << "\n";
  const json& env = fp.at("environment");
  out << "env       " << env.at("variables").size() << " fabric variable(s) recorded, "
      << env.at("redacted").size() << " redacted\n";
  for (const auto& note : fp.value("notes", json::array())) {
    out << note.value("level", "") << " [" << note.value("id", "") << "] " << note.value("text", "")
        << "\n";
  }
  return out.str();
}

}  // namespace fabricgate::fingerprint
