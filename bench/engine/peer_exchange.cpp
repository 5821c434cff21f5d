#include "bench/engine/peer_exchange.hpp"

#include <stdexcept>
#include "core/json_file.hpp"

namespace fabricgate::bench {

PeerCards exchange_cards(Communicator& comm, nlohmann::json card, const std::string& skip,
                         const std::string& error) {
  if (!card.is_object()) card = nlohmann::json::object();
  card["skip"] = skip;
  card["error"] = error;
  PeerCards out;
  for (const auto& text : comm.all_gather(card.dump()))
    out.cards.push_back(parse_json_text(text, "peer card of another rank"));
  for (std::size_t r = 0; r < out.cards.size(); ++r) {
    const std::string e = out.cards[r].value("error", "");
    if (!e.empty()) throw std::runtime_error("rank " + std::to_string(r) + ": " + e);
  }
  for (const auto& c : out.cards) {
    const std::string s = c.value("skip", "");
    if (!s.empty()) {
      out.skip_reason = s;
      break;
    }
  }
  return out;
}

}  // namespace fabricgate::bench
