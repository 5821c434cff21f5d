// nccl-tests text output (the console table) -> the import reader and, when it parses, the run it
// becomes read back by the run loader. Only InputError may come out (exit 2), and a built run must
// be one compare can load. One format per target, so libFuzzer's coverage steers into it alone.
#include <string>

#include "fuzz/fuzz_common.hpp"
#include "harness/import/imported_nccl_run.hpp"
#include "harness/import/nccl_tests_text.hpp"
#include "harness/model/run_record.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fabricgate::import;
  const ImportContext context{"fuzz", "2026-12-01T09:00:00Z", "20261201T090000Z", "fuzz"};
  const std::string_view text = fabricgate::fuzz::as_text(data, size);
  const std::vector<SourceFile> files{{"input", std::string(text)}};
  return fabricgate::fuzz::expect_only_input_errors([&] {
    const NcclTestsOutput o = parse_nccl_tests_text(text, "input");
    fabricgate::parse_run(build_nccl_tests_run({o}, files, context).run, "built");
  });
}
