#pragma once
// records.jsonl's first line ("type": "header", schema fabricgate.records/1): what the bench tells
// the harness about the job before any benchmark (docs/DESIGN.md, "The record contract"). The
// bench fills it and writes to_json; fabricgate run reads it back with read_records_header when
// it assembles run.json.
#include <string>

#include <nlohmann/json.hpp>

namespace fabricgate {

inline constexpr const char* kRecordsSchema = "fabricgate.records/1";

struct RecordsHeader {
  std::string suite;
  int nranks = 0;
  int gpus_per_process = 1;
  bool nccl_nonblocking = false;
  nlohmann::json ranks = nlohmann::json::array();  // per rank: rank, host, local_rank, GPU ...
  std::string mpi_version;
  std::string nccl_version;  // what the bench really loaded (fabricgate ab checks it)
  std::string nccl_library;
  std::string capture_path = "none";  // profiler | log | none
  std::string profiler_set_by;        // fabricgate | user-or-none
  int benchmarks = 0;                 // registered benchmarks (the progress line's N)
  // The node layout (docs/MULTINODE.md): g is the smallest node's rank count.
  int nodes = 0;
  int ranks_per_node = 0;
  int ranks_per_node_max = 0;
  int gpus_per_node = 0;  // 0 on host-only runs
  bool nodes_emulated = false;
  nlohmann::json node_facts = nlohmann::json::array();  // one compact fingerprint per node
};

// The header line's object, without "type" (the records writer adds it).
nlohmann::json to_json(const RecordsHeader& header);

// Reads a header object; a missing field keeps its default, a field of the wrong JSON type throws
// nlohmann::json::type_error (the bench wrote it: a broken bench, not bad user input).
RecordsHeader read_records_header(const nlohmann::json& header);

}  // namespace fabricgate
