#include "harness/gate/route_checks.hpp"

namespace fabricgate::gate {

std::string join_set(const std::set<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return "{" + out + "}";
}

ExpectedTransport observed_transport(const RunRecord& run, const BenchmarkResult& result) {
  ExpectedTransport t;
  t.provider = result.provider();
  if (result.transport) {
    t.known = true;
    t.network = result.transport->network;
    t.transports = {result.transport->transports.begin(), result.transport->transports.end()};
  } else if (result.backend == "nccl" && run.capture.path != "none") {
    t.known = true;
    t.network = run.capture.network;
    t.transports = {run.capture.transports.begin(), run.capture.transports.end()};
  }
  // GDRDMA is captured per run (NET/.../GDRDMA in NCCL's log), so it follows the run capture.
  if (t.known && run.capture.path != "none") t.gdrdma = run.capture.gdrdma;
  return t;
}

ExpectedChoice observed_choice(const Choice& choice) { return names_used(choice); }

std::vector<verdict::Change> transport_changes(const ExpectedTransport& before,
                                               const ExpectedTransport& after,
                                               std::string& unknown_note) {
  std::vector<verdict::Change> out;
  // The provider is in params, so it is known on both sides whenever either has one.
  if (before.provider != after.provider) {
    out.push_back({"provider", before.provider.empty() ? "(none)" : before.provider,
                   after.provider.empty() ? "(none)" : after.provider});
  }
  if (!before.known) return out;
  if (!after.known) {
    unknown_note = "transport not captured in this run; P05/P06 (network " +
                   (before.network.empty() ? std::string("none") : before.network) +
                   " expected) not checked";
    return out;
  }
  if (before.network != after.network) {
    out.push_back({"network", before.network.empty() ? "(none)" : before.network,
                   after.network.empty() ? "(none)" : after.network});
  }
  if (before.transports != after.transports) {
    out.push_back({"transports", join_set(before.transports), join_set(after.transports)});
  }
  if (before.gdrdma != after.gdrdma) {
    out.push_back(
        {"gdrdma", before.gdrdma ? "GDRDMA" : "no GDRDMA", after.gdrdma ? "GDRDMA" : "no GDRDMA"});
  }
  return out;
}

std::vector<verdict::Change> choice_changes(const ExpectedChoice& before,
                                            const ExpectedChoice& after,
                                            std::vector<verdict::Change>& channel_changes) {
  std::vector<verdict::Change> out;
  if (before.algo != after.algo)
    out.push_back({"algo", join_set(before.algo), join_set(after.algo)});
  if (before.proto != after.proto)
    out.push_back({"proto", join_set(before.proto), join_set(after.proto)});
  if (before.channels != after.channels) {
    channel_changes.push_back({"channels", join_set(before.channels), join_set(after.channels)});
  }
  return out;
}

}  // namespace fabricgate::gate
