#pragma once
// A stored run's seal: HMAC-SHA256, under the recording machine's host key
// (harness/fingerprint/host_key.hpp), of what decides a host's level: the run's identity (platform,
// run id, start, host, session, suite, scenario, completeness, fingerprint digest) and each key's
// medians with the verdict it was recorded with. `fabricgate run` seals the row of the run it
// measured; `store import` and `compare` record rows unsealed unless told to vouch for them. A
// host's level and DRIFT series are read only from rows whose seal this machine's key verifies
// (harness/cli/store_hook.cpp): a row written with the sqlite3 shell, planted through `store
// import` or edited after the fact (a REGRESSION turned into PASS) is left out and counted.
// HMAC from OpenSSL's libcrypto, not written here.
#include <string>

#include "harness/store/stored_run.hpp"

namespace fabricgate::store {

// The canonical text the seal covers (medians sorted by key; numbers as JSON writes them).
std::string sealed_text(const StoredRun& run);

// Lower-case hex HMAC-SHA256 of sealed_text(run) under `key`.
std::string row_seal(const StoredRun& run, const std::string& key);

// True when `run.host_seal` is the seal `key` gives it (compared in constant time).
bool seal_holds(const StoredRun& run, const std::string& key);

}  // namespace fabricgate::store
