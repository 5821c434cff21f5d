// Multi-field INFO messages: per-collective tuning choices, channel counts, communicator init.
#include "core/nccl_names.hpp"
#include "harness/analysis/log_facts.hpp"
#include "harness/analysis/text_scan.hpp"

namespace fabricgate::capture::detail {
namespace {

std::optional<int> bounded(std::optional<long long> v) {
  if (!v || *v < -1 || *v > 10'000'000) return std::nullopt;
  return static_cast<int>(*v);
}

}  // namespace

// "%s: %ld Bytes -> Algo %s proto %s channel{Lo..Hi}={%d..%d}"   2.24+
// "%s: %ld Bytes -> Algo %d proto %d time %f"                     2.23
// "%ld Bytes -> Algo %d proto %d time %f"                         2.20-2.22
// "%s [Symmetric]: %ld Bytes -> Kernel %s nchannels %d nthreads %d[ nWorks %d]"   2.27+
std::optional<TuningFact> parse_tuning_message(std::string_view message) {
  TuningFact fact;
  TextScan scan(message);
  if (!message.empty() && !(message.front() >= '0' && message.front() <= '9')) {
    std::string_view func = scan.until(": ");
    if (!scan.literal(": ")) return std::nullopt;
    if (func.ends_with(" [Symmetric]")) func.remove_suffix(std::string_view(" [Symmetric]").size());
    if (func.empty() || func.find(' ') != std::string_view::npos) return std::nullopt;
    fact.func = std::string(func);
  }
  const auto bytes = scan.integer();
  if (!bytes || *bytes < 0) return std::nullopt;
  fact.bytes = static_cast<std::uint64_t>(*bytes);
  if (!scan.literal(" Bytes -> ")) return std::nullopt;
  if (scan.literal("Algo ")) {
    fact.algo = std::string(canonical_algo(scan.word()));
    if (!scan.literal(" proto ")) return std::nullopt;
    fact.proto = std::string(canonical_proto(scan.word()));
    if (fact.algo.empty() || fact.proto.empty()) return std::nullopt;
    if (scan.literal(" channel{Lo..Hi}={")) {
      const auto lo = bounded(scan.integer());
      const bool dots = scan.literal("..");
      const auto hi = bounded(scan.integer());
      if (lo && dots && hi && *hi >= *lo) fact.channels = *hi - *lo + 1;
    }
    return fact;
  }
  if (scan.literal("Kernel ")) {
    fact.algo = "Symmetric";
    fact.kernel = std::string(scan.word());
    if (scan.literal(" nchannels ")) {
      if (auto n = bounded(scan.integer())) fact.channels = *n;
    }
    return fact;
  }
  return std::nullopt;
}

// "%d coll channels, [%d collnet channels, ]%d nvls channels, %d p2p channels, %d p2p channels per
// peer"
std::optional<ChannelCountsFact> parse_channel_counts(std::string_view message) {
  ChannelCountsFact fact;
  std::string_view rest = trim(message);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(", ");
    const std::string_view part = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 2);
    TextScan scan(part);
    const auto n = bounded(scan.integer());
    if (!n || !scan.literal(" ")) return std::nullopt;
    const std::string_view label = trim(scan.rest());
    if (label == "coll channels")
      fact.coll = *n;
    else if (label == "collnet channels")
      fact.collnet = *n;
    else if (label == "nvls channels")
      fact.nvls = *n;
    else if (label == "p2p channels")
      fact.p2p = *n;
    else if (label == "p2p channels per peer")
      fact.p2p_per_peer = *n;
  }
  if (fact.coll < 0) return std::nullopt;
  return fact;
}

// Key/value walk over "[[Rank %d] ][func ]comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx
// [commId 0x%llx | parent %p ...] - Init START|COMPLETE"; the order of keys does not matter.
std::optional<CommInitFact> parse_comm_init(std::string_view message) {
  CommInitFact fact;
  fact.complete = message.find("Init COMPLETE") != std::string_view::npos;
  const std::size_t comm = message.find("comm ");
  if (comm == std::string_view::npos) return std::nullopt;
  TextScan scan(message.substr(comm));
  while (!scan.done()) {
    scan.skip_spaces();
    const std::string_view key = scan.word();
    if (key.empty()) break;
    scan.skip_spaces();
    if (key == "busId") {
      if (auto v = scan.hex()) {
        fact.bus_id = *v;
        fact.has_bus_id = true;
      }
      continue;
    }
    int* target = nullptr;
    if (key == "rank")
      target = &fact.rank;
    else if (key == "nranks" || key == "nRanks")
      target = &fact.nranks;
    else if (key == "cudaDev")
      target = &fact.cuda_dev;
    else if (key == "nvmlDev")
      target = &fact.nvml_dev;
    if (target != nullptr) {
      if (auto v = bounded(scan.integer())) *target = *v;
    }
  }
  if (fact.rank < 0 || fact.nranks <= 0 || fact.rank >= fact.nranks) return std::nullopt;
  return fact;
}

}  // namespace fabricgate::capture::detail
