// run.json bytes -> parse_json_text (UTF-8, duplicates, schema) -> parse_run (every field check).
#include "core/json_file.hpp"
#include "fuzz/fuzz_common.hpp"
#include "harness/model/run_record.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fabricgate::fuzz::expect_only_input_errors([&] {
    const fabricgate::json doc = fabricgate::parse_json_text(fabricgate::fuzz::as_text(data, size),
                                                             "fuzz.json", fabricgate::kRunSchema);
    const fabricgate::RunRecord run = fabricgate::parse_run(doc, "fuzz.json");
    // What the loader accepted must be usable downstream: names are safe path components.
    if (!fabricgate::is_safe_name(run.platform) || !fabricgate::is_safe_name(run.run_id))
      __builtin_trap();
  });
}
