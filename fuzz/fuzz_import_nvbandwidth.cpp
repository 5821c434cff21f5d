// nvbandwidth -j JSON output -> the import reader and, when it parses, the run it becomes read back
// by the run loader. Only InputError may come out (exit 2), and a built run must be one compare
// can load (keys per import and memory per key are bounded before the run is built).
#include <string>

#include "fuzz/fuzz_common.hpp"
#include "harness/import/imported_nvbandwidth_run.hpp"
#include "harness/import/nvbandwidth_json.hpp"
#include "harness/model/run_record.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fabricgate::import;
  const ImportContext context{"fuzz", "2026-12-01T09:00:00Z", "20261201T090000Z", "fuzz"};
  const std::string_view text = fabricgate::fuzz::as_text(data, size);
  const std::vector<SourceFile> files{{"input", std::string(text)}};
  return fabricgate::fuzz::expect_only_input_errors([&] {
    const NvbandwidthOutput o = parse_nvbandwidth_json(text, "input");
    fabricgate::parse_run(build_nvbandwidth_run({o}, files, 1 << 20, context).run, "built");
  });
}
