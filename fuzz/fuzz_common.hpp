#pragma once
// Shared by the fuzz targets: the only exception a parser may throw on bad bytes is InputError
// (exit 2 in the CLI). Anything else escaping LLVMFuzzerTestOneInput aborts, which libFuzzer
// reports as a crash with the input saved: that is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/errors.hpp"

namespace fabricgate::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};  // NOLINT: bytes are text here
}

// Runs `body`, swallowing InputError only.
template <typename Body>
int expect_only_input_errors(Body&& body) {
  try {
    body();
  } catch (const InputError&) {
  }
  return 0;
}

}  // namespace fabricgate::fuzz
