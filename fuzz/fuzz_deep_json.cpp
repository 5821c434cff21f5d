// Nesting depth: any bytes, wrapped in up to 65,535 levels of "[" ... "]" (the first two bytes
// choose how many), go through parse_json_text; whatever it accepts is copied, compared and dumped,
// the recursive operations that crashed on a 60,000-deep run.json before the depth limit.
#include <string>

#include "core/json_file.hpp"
#include "fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t levels = static_cast<std::size_t>(data[0]) << 8 | data[1];
  const std::string_view body = fabricgate::fuzz::as_text(data + 2, size - 2);
  std::string text(levels, '[');
  text += body;
  text.append(levels, ']');
  return fabricgate::fuzz::expect_only_input_errors([&] {
    const fabricgate::json doc = fabricgate::parse_json_text(text, "fuzz.json");
    const fabricgate::json copy =
        doc;  // NOLINT(performance-unnecessary-copy-initialization): the point
    if (!(copy == doc)) __builtin_trap();
    if (copy.dump().empty()) __builtin_trap();
  });
}
