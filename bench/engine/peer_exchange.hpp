#pragma once
// Setting up a pair of ranks: each rank publishes what it opened locally (its address card) or why
// it could not, in exactly one all_gather per call whatever happened, so the ranks decide together
// and never wait on each other: an error anywhere fails every rank, a skip anywhere skips everyone.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/engine/communicator.hpp"

namespace fabricgate::bench {

struct PeerCards {
  std::vector<nlohmann::json> cards;  // indexed by rank
  std::string skip_reason;            // non-empty: some rank cannot run this benchmark
};

// Throws std::runtime_error("rank R: …") on every rank when any rank reported an error.
PeerCards exchange_cards(Communicator& comm, nlohmann::json card, const std::string& skip,
                         const std::string& error);

}  // namespace fabricgate::bench
