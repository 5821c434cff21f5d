// NCCL debug logs -> parse_nccl_logs, which promises never to throw on malformed text (so here
// not even InputError is expected). A NUL byte splits the input into two ranks' logs.
#include <string>
#include <vector>

#include "fuzz/fuzz_common.hpp"
#include "harness/analysis/capture_summary.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fabricgate::fuzz::as_text(data, size);
  std::vector<std::string> logs;
  const std::size_t nul = text.find('\0');
  logs.emplace_back(text.substr(0, nul));
  if (nul != std::string_view::npos) logs.emplace_back(text.substr(nul + 1));
  const auto summary = fabricgate::capture::parse_nccl_logs(logs);
  (void)summary.network();
  (void)summary.has_transport_prefix("P2P");
  return 0;
}
