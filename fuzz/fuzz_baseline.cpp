// Baseline bytes -> parse_baseline; whatever is accepted must survive baseline_to_json ->
// parse_baseline unchanged in its policy and keys (save_baseline writes exactly that JSON, and a
// baseline the next run cannot read back would block the gate).
#include "core/json_file.hpp"
#include "fuzz/fuzz_common.hpp"
#include "harness/model/baseline.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fabricgate::fuzz::expect_only_input_errors([&] {
    const fabricgate::json doc = fabricgate::parse_json_text(
        fabricgate::fuzz::as_text(data, size), "fuzz.json", fabricgate::kBaselineSchema);
    const fabricgate::Baseline first = fabricgate::parse_baseline(doc, "fuzz.json");
    fabricgate::Baseline second;
    try {
      const std::string text = fabricgate::baseline_to_json(first).dump(2);
      second = fabricgate::parse_baseline(fabricgate::parse_json_text(text, "roundtrip.json"),
                                          "roundtrip.json");
    } catch (const fabricgate::InputError&) {
      __builtin_trap();  // accepted once, refused after being written: a finding
    }
    if (!(second.policy == first.policy) || second.entries.size() != first.entries.size())
      __builtin_trap();
  });
}
