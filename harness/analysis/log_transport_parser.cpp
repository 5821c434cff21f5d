// Per-connection transport lines (src/transport/{p2p,shm,net,coll_net}.cc, 2.18 .. 2.30):
//   Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/direct pointer%s         (%s = "/read" or "")
//   Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/%s%s%s                   (CUMEM|MNNVL, /read, /CE)
//   Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/IPC%s%s
//   Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/indirect/%d[%d]%s
//   Channel %02d : %d[%d] -> %d[%d] via SHM/%s/%s                         (master: SHM/direct)
//   Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d[(%d)]%s%s%s   (/GDRDMA, (PCI), /Shared)
//   CollNet %02d/%1d : %d [send] via COLLNET/%s/%d%s%s
// The bracketed device is the NVML index in current NCCL and a hex bus id in old ones.
// A network plugin's name may contain spaces ("NET/AWS Libfabric/0/GDRDMA").
#include "harness/analysis/log_facts.hpp"
#include "harness/analysis/text_scan.hpp"

namespace fabricgate::capture::detail {
namespace {

bool skip_bracket(TextScan& scan) {
  if (!scan.literal("[")) return true;  // the device part is optional
  scan.until("]");
  return scan.literal("]");
}

std::optional<int> small_int(TextScan& scan) {
  const auto v = scan.integer();
  if (!v || *v < -1 || *v > 10'000'000) return std::nullopt;
  return static_cast<int>(*v);
}

// Fills kind/variant/flags from the text after "via ".
void describe(std::string_view via, TransportFact& fact) {
  for (std::string_view family : {std::string_view("NET/"), std::string_view("COLLNET/")}) {
    if (!via.starts_with(family)) continue;
    std::string_view rest = via.substr(family.size());
    // The plugin name ends at the first "/<digit>" (the device index).
    std::size_t end = std::string_view::npos;
    for (std::size_t i = 0; i + 1 < rest.size(); ++i) {
      if (rest[i] == '/' && rest[i + 1] >= '0' && rest[i + 1] <= '9') {
        end = i;
        break;
      }
    }
    const std::string_view name = rest.substr(0, end);
    fact.kind = std::string(family) + std::string(name);
    std::string_view flags;
    if (end != std::string_view::npos) {
      TextScan scan(rest.substr(end + 1));
      if (auto dev = small_int(scan)) fact.net_dev = *dev;
      if (scan.literal("(")) {  // proxy rank (PXN)
        scan.until(")");
        scan.literal(")");
      }
      flags = scan.rest();
    }
    fact.gdrdma = flags.find("/GDRDMA") != std::string_view::npos;
    fact.shared = flags.find("/Shared") != std::string_view::npos;
    fact.variant = fact.kind;
    if (fact.gdrdma) fact.variant += "/GDRDMA";
    if (flags.find("(PCI)") != std::string_view::npos) fact.variant += "(PCI)";
    if (fact.shared) fact.variant += "/Shared";
    return;
  }
  fact.variant = std::string(via);
  if (via.starts_with("P2P/")) {
    const std::string_view rest = via.substr(4);
    if (rest.starts_with("direct pointer")) {
      fact.kind = "P2P/direct pointer";
    } else if (rest.starts_with("indirect")) {
      fact.kind = "P2P/indirect";
      fact.variant = via.ends_with("/read") ? "P2P/indirect/read" : "P2P/indirect";
    } else {
      fact.kind = "P2P/" + std::string(rest.substr(0, rest.find('/')));
    }
  } else if (via.starts_with("SHM")) {
    fact.kind = "SHM";
  } else {
    fact.kind = std::string(via);
  }
}

}  // namespace

std::optional<TransportFact> parse_transport_message(std::string_view message) {
  TransportFact fact;
  TextScan scan(message);
  const bool collnet = scan.literal("CollNet ");
  if (!collnet && !scan.literal("Channel ")) return std::nullopt;
  auto channel = small_int(scan);
  if (!channel) return std::nullopt;
  fact.channel = *channel;
  if (scan.literal("/")) {
    auto conn = small_int(scan);
    if (!conn) return std::nullopt;
    fact.conn = *conn;
  }
  scan.skip_spaces();
  if (!scan.literal(":")) return std::nullopt;
  scan.skip_spaces();
  auto from = small_int(scan);
  if (!from) return std::nullopt;
  fact.from_rank = *from;
  if (!skip_bracket(scan)) return std::nullopt;
  scan.skip_spaces();
  if (!collnet) {
    if (!scan.literal("->")) return std::nullopt;
    scan.skip_spaces();
    auto to = small_int(scan);
    if (!to) return std::nullopt;
    fact.to_rank = *to;
    if (!skip_bracket(scan)) return std::nullopt;
    scan.skip_spaces();
  }
  if (scan.literal("[send]")) {
    fact.direction = "send";
  } else if (scan.literal("[receive]")) {
    fact.direction = "receive";
  }
  scan.skip_spaces();
  if (!scan.literal("via ")) return std::nullopt;
  std::string_view via = scan.rest();
  const std::size_t rccl_tail = via.find(" comm ");  // RCCL: "... via P2P/IPC comm 0x.. nRanks 08"
  via = trim(via.substr(0, rccl_tail));
  if (via.empty()) return std::nullopt;
  describe(via, fact);
  return fact;
}

}  // namespace fabricgate::capture::detail
