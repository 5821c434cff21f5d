#pragma once
// The data pattern written into every source buffer and expected in every destination, shared by
// the device kernels and the host loops (host buffers are filled and checked by the CPU). Word i of
// transfer t is a bijection of i, so a copy that moved data to the wrong offset is caught, and a
// distinct seed per transfer catches two transfers crossing their buffers.
#include <cstdint>

#if defined(__CUDACC__)
#define FABRICGATE_HOST_DEVICE __host__ __device__
#else
#define FABRICGATE_HOST_DEVICE
#endif

namespace fabricgate::bench {

FABRICGATE_HOST_DEVICE inline std::uint32_t copy_pattern_word(std::uint32_t seed,
                                                              std::uint64_t word) {
  return static_cast<std::uint32_t>(word) * 2654435761u + seed * 40503u + 0x9E3779B9u;
}

// Byte b of a buffer: the bytes of the words, little-endian, so a tail shorter than a word is
// checked too.
FABRICGATE_HOST_DEVICE inline std::uint8_t copy_pattern_byte(std::uint32_t seed,
                                                             std::uint64_t byte) {
  return static_cast<std::uint8_t>(copy_pattern_word(seed, byte / 4) >> (8 * (byte % 4)));
}

}  // namespace fabricgate::bench
