#pragma once
// Which machine and which sitting a launch came from: noise enters between sessions
// and between hosts, so every launch carries both.
//
// Host id: 12 hex digits of FNV-1a 64 over the sorted GPU UUIDs and the host name. Without GPUs,
// over the host name and the fingerprint's host.machine_id (harness/fingerprint/
// machine_identity.hpp: FABRICGATE_HOST_ID, the DMI product UUID or a state-file id, hashed),
// and only when there is none, the CPU model: on CI VMs host name and CPU model are the same on
// every instance, which made every 2-core VM of a kind one host. GPU UUIDs are burned into the
// GPU, unique and stable across reboots, so a GPU host's id needs nothing else. It must be stable
// and comparable, not secret and not collision-proof against an adversary: the inputs are already
// in the fingerprint in clear, so a cryptographic hash adds nothing but a dependency. 48 bits keep
// accidental collisions negligible for any realistic runner pool (~1e-9 for a thousand hosts).
#include <string>

#include <nlohmann/json.hpp>

namespace fabricgate {

// From a fingerprint document (fingerprint.schema: "gpus": {"devices": [{"uuid"}]},
// "host": {"hostname", "cpu_model"}). Always 12 lowercase hex digits; a fingerprint missing all
// inputs hashes the empty description (one "unknown" host, still a valid id).
std::string host_id_of(const nlohmann::json& fingerprint);

// FNV-1a 64 of `text`, as 16 lowercase hex digits.
std::string fnv1a64_hex(const std::string& text);

// "<UTC start, compact>-<host id>-<pid>": one `fabricgate run` invocation.
std::string session_id_of(const std::string& started_compact, const std::string& host_id, long pid);

}  // namespace fabricgate
