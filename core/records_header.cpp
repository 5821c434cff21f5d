#include "core/records_header.hpp"

namespace fabricgate {

nlohmann::json to_json(const RecordsHeader& h) {
  return {{"schema", kRecordsSchema},
          {"suite", h.suite},
          {"nranks", h.nranks},
          {"gpus_per_process", h.gpus_per_process},
          {"nccl_nonblocking", h.nccl_nonblocking},
          {"ranks", h.ranks},
          {"mpi_version", h.mpi_version},
          {"nccl_version", h.nccl_version},
          {"nccl_library", h.nccl_library},
          {"capture_path", h.capture_path},
          {"profiler_set_by", h.profiler_set_by},
          {"benchmarks", h.benchmarks},
          {"nodes", h.nodes},
          {"ranks_per_node", h.ranks_per_node},
          {"ranks_per_node_max", h.ranks_per_node_max},
          {"gpus_per_node", h.gpus_per_node},
          {"nodes_emulated", h.nodes_emulated},
          {"node_facts", h.node_facts}};
}

RecordsHeader read_records_header(const nlohmann::json& j) {
  RecordsHeader h;
  h.suite = j.value("suite", h.suite);
  h.nranks = j.value("nranks", h.nranks);
  h.gpus_per_process = j.value("gpus_per_process", h.gpus_per_process);
  h.nccl_nonblocking = j.value("nccl_nonblocking", h.nccl_nonblocking);
  h.ranks = j.value("ranks", h.ranks);
  h.mpi_version = j.value("mpi_version", h.mpi_version);
  h.nccl_version = j.value("nccl_version", h.nccl_version);
  h.nccl_library = j.value("nccl_library", h.nccl_library);
  h.capture_path = j.value("capture_path", h.capture_path);
  h.profiler_set_by = j.value("profiler_set_by", h.profiler_set_by);
  h.benchmarks = j.value("benchmarks", h.benchmarks);
  h.nodes = j.value("nodes", h.nodes);
  h.ranks_per_node = j.value("ranks_per_node", h.ranks_per_node);
  h.ranks_per_node_max = j.value("ranks_per_node_max", h.ranks_per_node_max);
  h.gpus_per_node = j.value("gpus_per_node", h.gpus_per_node);
  h.nodes_emulated = j.value("nodes_emulated", h.nodes_emulated);
  // Node facts are copied only as a list: run.json's "nodes" is an array or empty.
  if (const auto it = j.find("node_facts"); it != j.end() && it->is_array()) h.node_facts = *it;
  return h;
}

}  // namespace fabricgate
