#pragma once
// Round-robin tournament (circle method) over k nodes: k−1 rounds (k even; k odd adds a bye and
// takes k rounds), every pair of nodes meets exactly once, and every node is in at most one pair
// per round, so a round's pairs can run at the same time without sharing a node's NIC.
// For large k the schedule is cut to the first `max_rounds` rounds (each still covers every node).
#include <utility>
#include <vector>

namespace fabricgate::bench {

using NodePair = std::pair<int, int>;  // node indices, first < second
using Round = std::vector<NodePair>;

// Rounds of the circle method; max_rounds <= 0 means all of them. k < 2: no rounds.
std::vector<Round> round_robin_rounds(int nodes, int max_rounds = 0);

}  // namespace fabricgate::bench
