// fi_info text -> parse_fi_info -> group_by_device -> JSON, plus the sysfs value parsers of the
// RDMA inventory (port state and rate strings), which read files any host can contain.
#include "fuzz/fuzz_common.hpp"
#include "harness/fingerprint/fi_info_parser.hpp"
#include "harness/fingerprint/rdma_inventory.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fabricgate::fuzz::as_text(data, size);
  return fabricgate::fuzz::expect_only_input_errors([&] {
    const auto entries = fabricgate::fingerprint::parse_fi_info(text);
    const auto devices = fabricgate::fingerprint::group_by_device(entries);
    // fabricgate writes every document with error_handler_t::replace (json_file.cpp): the same
    // here.
    (void)fabricgate::fingerprint::fabric_devices_json(devices).dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
    for (const auto& e : entries) {
      (void)fabricgate::fingerprint::device_of_domain(e.domain);
      (void)fabricgate::fingerprint::core_provider(e.provider);
    }
    const std::string line(text.substr(0, text.find('\n')));
    (void)fabricgate::fingerprint::port_state_name(line);
    (void)fabricgate::fingerprint::port_rate_Gbps(line);
  });
}
