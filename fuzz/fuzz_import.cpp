// Other tools' output files -> the import readers (nccl-tests text and -J JSON, nvbandwidth -j)
// and, when a file parses, the run it becomes, read back by the run loader: on any bytes only
// InputError may come out (exit 2), and a run that is built must be one compare can load.
#include <string>

#include "fuzz/fuzz_common.hpp"
#include "harness/import/imported_nccl_run.hpp"
#include "harness/import/imported_nvbandwidth_run.hpp"
#include "harness/import/nccl_tests_json.hpp"
#include "harness/import/nccl_tests_text.hpp"
#include "harness/model/run_record.hpp"

namespace {
const fabricgate::import::ImportContext kContext{"fuzz", "2026-12-01T09:00:00Z", "20261201T090000Z",
                                                 "fuzz"};
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fabricgate::import;
  const std::string_view text = fabricgate::fuzz::as_text(data, size);
  const std::vector<SourceFile> files{{"input", std::string(text)}};
  fabricgate::fuzz::expect_only_input_errors([&] {
    const NcclTestsOutput o = parse_nccl_tests_text(text, "input");
    fabricgate::parse_run(build_nccl_tests_run({o}, files, kContext).run, "built");
  });
  fabricgate::fuzz::expect_only_input_errors([&] {
    const NcclTestsOutput o = parse_nccl_tests_json(text, "input");
    fabricgate::parse_run(build_nccl_tests_run({o}, files, kContext).run, "built");
  });
  fabricgate::fuzz::expect_only_input_errors([&] {
    const NvbandwidthOutput o = parse_nvbandwidth_json(text, "input");
    fabricgate::parse_run(build_nvbandwidth_run({o}, files, 1 << 20, kContext).run, "built");
  });
  return 0;
}
