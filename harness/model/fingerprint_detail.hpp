#pragma once
// The fingerprint facts a "what changed" report names, flattened to field -> text: the driver,
// CUDA, NCCL's version and library path, MPI, the fabric environment (NCCL_*, FI_*, UCX_*, OMPI_*
// ... as the fingerprint recorded it, secrets redacted again here), nccl.conf settings, each GPU
// with its PCIe link and NVLink count, the RDMA NICs and libfabric devices, the kernel.
//
// Why a flat map of text: two of them are compared field by field (baseline vs run, side A vs
// side B), and a baseline stores one as reviewable JSON. Read leniently: a section the fingerprint
// lacks (older runs, hosts without GPUs) simply has no fields, it is never an error.
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace fabricgate {

using FingerprintDetail = std::map<std::string, std::string>;

// Fields such as "nccl", "nccl_path", "env/NCCL_IB_HCA", "nccl.conf/NCCL_PROTO", "gpu0",
// "gpu0/pcie", "gpu0/nvlinks", "nics", "kernel". Empty for a non-object.
FingerprintDetail fingerprint_detail(const nlohmann::json& fingerprint);

// A detail field's value as it may be shown or recorded: an env/NAME or nccl.conf/NAME field
// whose NAME says secret loses its value, any other value its secret-shaped parts
// (secret_redaction.hpp). For details read back from files (a baseline's fingerprint_detail),
// which anyone may have written: WHAT CHANGED prints them in every format.
std::string recordable_detail(const std::string& field, const std::string& value);

}  // namespace fabricgate
