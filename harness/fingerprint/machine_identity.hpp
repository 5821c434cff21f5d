#pragma once
// What tells this machine apart from every other runner of the same kind, when it has no GPU
// whose UUID does (harness/model/host_identity.hpp). On cloud and CI VMs the host name, the CPU
// model, /etc/machine-id and the NIC's MAC are often the same on every instance of an image
// (measured on this project's 2-core CI VMs: hostname "vm", "Intel(R) Xeon(R) Processor" or
// "AMD EPYC", a machine-id written when the image was built, eth0 02:fc:00:00:00:01), so a hash of
// them made every such VM "the same host". In order:
//   1. FABRICGATE_HOST_ID: a runner pool's own name for the runner ([A-Za-z0-9._-], <= 64), for
//      pools that know better than the machine;
//   2. the DMI product UUID (/sys/class/dmi/id/product_uuid, root-readable), unless it is a
//      placeholder (all one digit, or the widespread 03000200-0400-0500-0006-000700080009):
//      set per VM instance by the hypervisor, stable across reboots;
//   3. a random id this machine keeps in a state file: FABRICGATE_HOST_ID_FILE, else
//      /var/lib/fabricgate/host-id as root, else $XDG_STATE_HOME (~/.local/state)/fabricgate/
//      host-id; created once (32 hex digits from getrandom, O_EXCL, no symlink followed),
//      stable across reboots while the disk lives, new on a fresh VM, which is a new machine.
// Only a hash of the chosen value is recorded (`machine_id`: FNV-1a 64, 16 hex digits), never the
// value itself, and the source is named. Reading never fails: without any of them the host id
// falls back to the host name and CPU model, and says so (source "hostname+cpu-model"); `run`
// refuses a state file that is there but unusable first (require_usable_host_id_state_file).
#include <cstddef>
#include <filesystem>
#include <string>

namespace fabricgate::fingerprint {

struct MachineIdentity {
  std::string id;      // 16 hex digits, "" when none could be had
  std::string source;  // "FABRICGATE_HOST_ID" | "dmi-product-uuid" | "state-file:<path>" | ...
};

// `root` "/" reads (and, for the state file, creates) the real files; any other root (tests)
// only reads under it and never creates anything.
MachineIdentity read_machine_identity(const std::filesystem::path& root);

// FABRICGATE_HOST_ID, when set, names this runner (1-64 letters, digits, '.', '_', '-'). A value
// outside that is an input error (InputError naming the variable), before anything is launched:
// dropping it without a word would judge the runner under another identity (issue 58).
void require_usable_host_id_env();

// The state file that names this runner when neither FABRICGATE_HOST_ID nor a DMI UUID does:
// present but unusable (a symlink, a directory, unreadable, empty, or not 32 hex digits) is an
// input error naming the file and what is wrong with it, before anything is launched. Dropping it
// without a word brought back the host name and CPU model that every CI VM of an image shares,
// and judged the VM against another machine's level as "its own history" (issue 58).
void require_usable_host_id_state_file();

// `bytes` random bytes from getrandom as lower-case hex (the host id, the host key); "" when the
// kernel gives none.
std::string random_hex_digits(std::size_t bytes);

// Where this runner keeps its id when neither FABRICGATE_HOST_ID nor a DMI UUID names it
// (FABRICGATE_HOST_ID_FILE, else /var/lib/fabricgate/host-id as root, else the XDG state
// directory); "" when no place is known. Its directory also keeps the host key (host_key.hpp).
std::filesystem::path host_id_state_file();

// True for DMI UUIDs that firmware leaves unset or shares across machines.
bool is_placeholder_uuid(const std::string& uuid);

}  // namespace fabricgate::fingerprint
