#pragma once
// Deterministic random numbers for synthetic histories (splitmix64 + Box-Muller): the same series
// on every machine and standard library, which std:: distributions do not promise.
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace fabricgate::testing {

class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : s_(seed) {}
  double uniform() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (static_cast<double>(z >> 11) + 0.5) / 9007199254740992.0;
  }
  double normal() {
    return std::sqrt(-2 * std::log(uniform())) * std::cos(6.283185307179586 * uniform());
  }
  std::size_t below(std::size_t n) {
    return static_cast<std::size_t>(uniform() * static_cast<double>(n));
  }

 private:
  std::uint64_t s_;
};

}  // namespace fabricgate::testing
