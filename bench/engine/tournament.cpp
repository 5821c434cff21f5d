#include "bench/engine/tournament.hpp"

#include <algorithm>

namespace fabricgate::bench {

std::vector<Round> round_robin_rounds(int nodes, int max_rounds) {
  std::vector<Round> rounds;
  if (nodes < 2) return rounds;
  // Circle method: seat 0 stays, seats 1..m-1 rotate by one each round; seat i meets seat m-1-i.
  const int m = nodes % 2 == 0 ? nodes : nodes + 1;  // seat m-1 is the bye when k is odd
  const int total = m - 1;
  const int wanted = max_rounds > 0 ? std::min(max_rounds, total) : total;
  std::vector<int> seat(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) seat[static_cast<std::size_t>(i)] = i;
  for (int r = 0; r < wanted; ++r) {
    Round round;
    for (int i = 0; i < m / 2; ++i) {
      const int a = seat[static_cast<std::size_t>(i)];
      const int b = seat[static_cast<std::size_t>(m - 1 - i)];
      if (a >= nodes || b >= nodes) continue;  // the bye
      round.emplace_back(std::min(a, b), std::max(a, b));
    }
    std::sort(round.begin(), round.end());
    rounds.push_back(std::move(round));
    std::rotate(seat.begin() + 1, seat.end() - 1, seat.end());
  }
  return rounds;
}

}  // namespace fabricgate::bench
