#include "harness/fingerprint/fingerprint.hpp"

#include "harness/fingerprint/environment_capture.hpp"
#include "harness/fingerprint/gpu_section.hpp"
#include "harness/fingerprint/gpu_topology.hpp"
#include "harness/fingerprint/host_facts.hpp"
#include "harness/fingerprint/library_probe.hpp"
#include "harness/fingerprint/nvml_gpu_query.hpp"
#include "harness/fingerprint/platform_key.hpp"
#include "harness/fingerprint/rdma_section.hpp"

namespace fabricgate::fingerprint {

namespace {

LibraryVersion not_probed() {
  LibraryVersion skipped;
  skipped.reason = "library probes switched off";
  return skipped;
}

// Every GPU's model, or "A + B" when a machine mixes models (the key then uses the first).
std::string gpu_model_of(const GpuInventory& inventory) {
  std::string model;
  for (const auto& gpu : inventory.devices) {
    if (model.empty()) {
      model = gpu.name;
    } else if (model.find(gpu.name) == std::string::npos) {
      model += " + " + gpu.name;
    }
  }
  return model;
}

void append_notes(json& notes, const json& section) {
  for (const auto& note : section.value("notes", json::array())) notes.push_back(note);
}

}  // namespace

json collect(const CollectOptions& options) {
  if (options.platform_override) {
    validate_platform_key(*options.platform_override, "fingerprint options", "platform");
  }
  const std::vector<std::string> environment =
      options.environment ? *options.environment : process_environment();

  const HostFacts host = read_host_facts(options.root);
  const NvmlGpuQuery nvml;
  const GpuQuery& gpu_query = options.gpu_query != nullptr ? *options.gpu_query : nvml;
  const GpuInventory gpus = gpu_query.query();
  const GpuTopology topology = derive_topology(gpus);

  const LibraryVersion cuda_runtime = options.probe_libraries ? probe_cuda_runtime() : not_probed();
  const LibraryVersion nccl = options.probe_libraries ? probe_nccl() : not_probed();
  const LibraryVersion mpi = options.probe_libraries ? probe_mpi() : not_probed();

  const RdmaInventory verbs = read_rdma_inventory(options.root);
  const FiInfoOutcome fi_info = run_fi_info(options.fi_info_program, options.fi_info_timeout);

  json gpu_json = gpu_section(gpus, topology, options.root);
  gpu_json["cuda_runtime"] = to_json(cuda_runtime);
  json rdma_json = rdma_section(verbs, fi_info);
  json nccl_json = to_json(nccl);
  nccl_json["config_files"] =
      nccl_config_files(options.root, environment_value(environment, "HOME"));

  const PlatformFacts facts{gpus.devices.empty() ? "" : gpus.devices.front().name,
                            static_cast<unsigned>(gpus.devices.size()),
                            topology.any_active_nvlink,
                            topology.min_pair_nvlinks,
                            host.cpu_model,
                            host.logical_cores};
  const std::string derived_key = derive_platform_key(facts);

  json notes = json::array();
  append_notes(notes, gpu_json);
  append_notes(notes, rdma_json);

  return {{"schema", kFingerprintSchema},
          {"platform_key", options.platform_override.value_or(derived_key)},
          {"platform_key_derived", derived_key},
          {"platform_key_source", options.platform_override ? "override" : "derived"},
          {"identity",
           {{"gpu_model", gpu_model_of(gpus)},
            {"gpu_count", gpus.devices.size()},
            {"gpu_topology", topology.label},
            {"cpu_model", host.cpu_model},
            {"rdma_devices", rdma_json["rdma_device_count"]}}},
          {"versions",
           {{"driver", gpus.driver_version},
            {"cuda_driver", cuda_version_name(gpus.cuda_driver_version)},
            {"cuda_runtime", cuda_runtime.version},
            {"nccl", nccl.version},
            {"mpi", mpi.version}}},
          {"host", to_json(host)},
          {"gpus", std::move(gpu_json)},
          {"rdma", std::move(rdma_json)},
          {"nccl", std::move(nccl_json)},
          {"mpi", to_json(mpi)},
          {"environment", capture_environment(environment)},
          {"notes", std::move(notes)}};
}

}  // namespace fabricgate::fingerprint
