#pragma once
// This runner's secret: what lets `fabricgate run` vouch for the rows it records in a results
// store, so that a level is learnt only from launches this machine measured (the store's rows are
// sealed with it: harness/store/row_seal.hpp). Anyone who can write a shared store or results
// directory can plant rows with any host id; without this machine's key they cannot seal them.
//
// Where: FABRICGATE_HOST_KEY_FILE, else `host-key` beside the host-id state file
// (machine_identity.hpp: /var/lib/fabricgate/ as root, else the XDG state directory). 64 hex
// digits from getrandom, created once by `run` (O_EXCL, mode 0600, no symlink followed). It is
// refused, naming the file and what is wrong, when it is a symlink or not a regular file, owned by
// another user, readable or writable by group or others (anyone who reads it can seal rows), or
// holds anything else. A lost key only means the runner's level is learnt again.
#include <filesystem>
#include <optional>
#include <string>

namespace fabricgate::fingerprint {

// The key file's path; "" when no place is known (no HOME, not root).
std::filesystem::path host_key_file();

// The key (64 hex digits), made when absent. Throws InputError naming the file when it is there
// but unusable, or cannot be made.
std::string require_host_key();

// The key when the file is there and usable; nullopt otherwise (never creates, never throws):
// readers on a machine without the key judge without a level of the host's own.
std::optional<std::string> read_host_key();

}  // namespace fabricgate::fingerprint
