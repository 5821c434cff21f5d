// The recorded sysfs trees of tests/data/sysfs-mlx5 and sysfs-efa (README.md there): a start tree,
// a clean end tree (traffic only), and per fault an overlay of the files that differ at the end
// (REMOVE: paths gone at the end; START: "path value" lines that differ at the start). Each fault
// must give exactly its findings, on the right device and port; clean trees none.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "fake_tree.hpp"
#include "harness/counters/rdma_counters.hpp"
#include "harness/model/counters/link_findings.hpp"

namespace fabricgate::counters {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using fingerprint::testing::FakeTree;

const fs::path kData = fs::path(FABRICGATE_SOURCE_DIR) / "tests" / "data";
constexpr double kWallSeconds = 30;

void copy_tree(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  fs::copy(from, to,
           fs::copy_options::recursive | fs::copy_options::copy_symlinks |
               fs::copy_options::overwrite_existing);
}

// Copies `overlay`'s files (not REMOVE/START) over `root`, then removes REMOVE's paths.
void apply_overlay(const fs::path& overlay, const fs::path& root) {
  for (const auto& entry : fs::recursive_directory_iterator(overlay)) {
    const fs::path rel = fs::relative(entry.path(), overlay);
    if (rel == "REMOVE" || rel == "START" || entry.is_directory()) continue;
    fs::create_directories((root / rel).parent_path());
    fs::copy_file(entry.path(), root / rel, fs::copy_options::overwrite_existing);
  }
  if (std::ifstream removes(overlay / "REMOVE"); removes) {
    for (std::string line; std::getline(removes, line);)
      if (!line.empty()) fs::remove_all(root / line);
  }
}

void apply_start_lines(const fs::path& overlay, const fs::path& root) {
  std::ifstream lines(overlay / "START");
  for (std::string line; std::getline(lines, line);) {
    std::istringstream parts(line);
    std::string path, value;
    parts >> path >> value;
    std::ofstream(root / path) << value << "\n";
  }
}

struct Trees {
  FakeTree start;
  FakeTree end;
};

RunnerCounters counters_of(const std::string& layout, const std::string& fault) {
  const fs::path dir = kData / ("sysfs-" + layout);
  Trees t;
  copy_tree(dir / "start", t.start.root());
  copy_tree(dir / "clean-end", t.end.root());
  if (!fault.empty()) {
    apply_start_lines(dir / "faults" / fault, t.start.root());
    apply_overlay(dir / "faults" / fault, t.end.root());
  }
  RunnerCounters c;
  c.present = true;
  c.wall_s = kWallSeconds;
  c.devices =
      device_deltas(read_rdma_samples(t.start.root()).ports, read_rdma_samples(t.end.root()).ports);
  return c;
}

using Finding =
    std::tuple<bool, std::string, unsigned, std::string>;  // fatal, device, port, counter

std::set<Finding> findings_of(const RunnerCounters& c) {
  std::set<Finding> out;
  for (const LinkFinding& f : link_findings(c)) out.insert({f.fatal, f.device, f.port, f.counter});
  return out;
}

const DeviceCounters& port(const RunnerCounters& c, const std::string& device, unsigned number) {
  for (const DeviceCounters& d : c.devices)
    if (d.device == device && d.port == number) return d;
  throw std::runtime_error("no " + device + " port " + std::to_string(number));
}

TEST(counters_rdma_fixtures, clean_mlx5_trees_give_nothing_but_traffic_deltas) {
  const RunnerCounters c = counters_of("mlx5", "");
  EXPECT_TRUE(findings_of(c).empty());
  const DeviceCounters& p = port(c, "mlx5_0", 1);
  EXPECT_EQ(p.identity, "mlx5_core, InfiniBand");
  // port_xmit_data is the 14th PortCounters file: 14,000,000 -> 14,777,013.
  ASSERT_NE(p.counter("port_xmit_data"), nullptr);
  EXPECT_EQ(p.counter("port_xmit_data")->delta, 777013U);
  // np_cnp_sent is the 4th hw counter: 20,000 -> 21,234 (congestion, not a fault).
  ASSERT_NE(p.counter("np_cnp_sent"), nullptr);
  EXPECT_EQ(p.counter("np_cnp_sent")->delta, 1234U);
  EXPECT_EQ(p.counter("lifespan"), nullptr);  // hw_counters' polling interval, not a counter
  EXPECT_EQ(*p.gauge("state_code")->end, 4);
  EXPECT_EQ(*p.gauge("rate_Gbps")->start, 400);
}

TEST(counters_rdma_fixtures, clean_efa_trees_give_nothing) {
  const RunnerCounters c = counters_of("efa", "");
  EXPECT_TRUE(findings_of(c).empty());
  const DeviceCounters& p = port(c, "rdmap16s27", 1);
  EXPECT_EQ(p.identity, "efa, Unspecified");
  // tx_bytes: 7,000,000,000 (over 2^32: read as 64-bit) + 9,000,000.
  ASSERT_NE(p.counter("tx_bytes"), nullptr);
  EXPECT_EQ(p.counter("tx_bytes")->delta, 9000000U);
  // device-level counters as port 0: submitted_cmds 100 -> 150
  ASSERT_NE(port(c, "rdmap16s27", 0).counter("submitted_cmds"), nullptr);
  EXPECT_EQ(port(c, "rdmap16s27", 0).counter("submitted_cmds")->delta, 50U);
}

struct FaultCase {
  const char* layout;
  const char* fault;
  std::set<Finding> expected;
};

// The test's name in ctest (gtest would print the struct's bytes).
void PrintTo(const FaultCase& f, std::ostream* out) { *out << f.layout << "/" << f.fault; }

class counters_rdma_fault : public ::testing::TestWithParam<FaultCase> {};

TEST_P(counters_rdma_fault, gives_exactly_its_findings_on_the_right_port) {
  const FaultCase& f = GetParam();
  EXPECT_EQ(findings_of(counters_of(f.layout, f.fault)), f.expected) << f.layout << "/" << f.fault;
}

INSTANTIATE_TEST_SUITE_P(
    recorded, counters_rdma_fault,
    ::testing::Values(
        FaultCase{"mlx5", "link-downed", {{true, "mlx5_1", 1, "link_downed"}}},
        FaultCase{
            "mlx5", "buffer-overrun", {{true, "mlx5_0", 1, "excessive_buffer_overrun_errors"}}},
        FaultCase{"mlx5", "link-integrity", {{true, "mlx5_1", 1, "local_link_integrity_errors"}}},
        FaultCase{"mlx5", "rnr-nak-retry", {{true, "mlx5_0", 1, "rnr_nak_retry_err"}}},
        // 2 in 30 s = 240/hour > 120/hour
        FaultCase{"mlx5", "symbol-error-ber", {{true, "mlx5_1", 1, "symbol_error"}}},
        // 400 in 30 s = 13.3/s: fatal by the rate per hour, degradation said in the text
        FaultCase{"mlx5", "symbol-error-burst", {{true, "mlx5_0", 1, "symbol_error"}}},
        // 3 in 30 s = 6/min > 5/min: degradation
        FaultCase{"mlx5", "link-recovery", {{false, "mlx5_1", 1, "link_error_recovery"}}},
        FaultCase{"mlx5", "port-down", {{true, "mlx5_0", 1, "state"}}},
        FaultCase{"mlx5", "rate-drop", {{false, "mlx5_1", 1, "rate"}}},
        FaultCase{"mlx5", "ack-timeout", {{false, "mlx5_0", 1, "local_ack_timeout_err"}}},
        FaultCase{"mlx5", "device-vanished", {{true, "mlx5_1", 1, "device"}}},
        FaultCase{"mlx5", "symbol-error-saturated", {{true, "mlx5_0", 1, "symbol_error"}}},
        FaultCase{"mlx5", "rnr-nak-retry-wrapped", {{true, "mlx5_1", 1, "rnr_nak_retry_err"}}},
        FaultCase{"efa", "retrans-timeout", {{false, "rdmap32s27", 1, "retrans_timeout_events"}}},
        FaultCase{
            "efa", "unresponsive-remote", {{false, "rdmap16s27", 1, "unresponsive_remote_events"}}},
        FaultCase{
            "efa", "impaired-remote", {{false, "rdmap32s27", 1, "impaired_remote_conn_events"}}},
        FaultCase{"efa", "port-down", {{true, "rdmap16s27", 1, "state"}}},
        FaultCase{"efa",
                  "device-vanished",
                  {{true, "rdmap32s27", 0, "device"}, {true, "rdmap32s27", 1, "device"}}}),
    [](const ::testing::TestParamInfo<FaultCase>& param) {
      std::string name = std::string(param.param.layout) + "_" + param.param.fault;
      for (char& ch : name)
        if (ch == '-') ch = '_';
      return name;
    });

TEST(counters_rdma_fixtures, burst_text_names_both_rates) {
  const std::vector<LinkFinding> f = link_findings(counters_of("mlx5", "symbol-error-burst"));
  ASSERT_EQ(f.size(), 1U);
  EXPECT_NE(f[0].text.find("symbol_error +400 in 30.0 s = 48000/hour"), std::string::npos)
      << f[0].text;
  EXPECT_NE(f[0].text.find("13.3/s is also over the 10/s degradation rate"), std::string::npos);
}

TEST(counters_rdma_fixtures, saturated_and_wrapped_deltas_by_hand) {
  const RunnerCounters sat = counters_of("mlx5", "symbol-error-saturated");
  const CounterDelta* s = port(sat, "mlx5_0", 1).counter("symbol_error");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->delta, 5U);  // 65530 -> 65535 (16 bits, saturated)
  EXPECT_EQ(s->note, "saturated at 65535: at least 5");
  const RunnerCounters wrap = counters_of("mlx5", "rnr-nak-retry-wrapped");
  const CounterDelta* w = port(wrap, "mlx5_1", 1).counter("rnr_nak_retry_err");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->delta, 9U);  // 4294967290 -> 3 through 2^32
}

TEST(counters_rdma_fixtures, unreadable_counter_is_named_with_the_reason) {
  FakeTree t;
  t.write("sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error", "N/A\n");
  t.write("sys/class/infiniband/mlx5_0/ports/1/counters/link_downed", "0\n");
  const RdmaSamples s = read_rdma_samples(t.root());
  ASSERT_EQ(s.ports.size(), 1U);
  EXPECT_EQ(s.ports[0].counters.count("link_downed"), 1U);
  ASSERT_EQ(s.ports[0].unread.size(), 1U);
  EXPECT_EQ(s.ports[0].unread[0].what, "symbol_error");
  EXPECT_EQ(s.ports[0].unread[0].reason, "not a number: \"N/A\"");
}

TEST(counters_rdma_fixtures, no_rdma_driver_is_one_unread_source) {
  FakeTree t;
  const RdmaSamples s = read_rdma_samples(t.root());
  EXPECT_TRUE(s.ports.empty());
  ASSERT_EQ(s.unread.size(), 1U);
  EXPECT_NE(s.unread[0].reason.find("no RDMA driver loaded"), std::string::npos);
}

TEST(counters_rdma_fixtures, port_counter_widths_follow_ibta) {
  EXPECT_EQ(port_counter_bits("local_link_integrity_errors"), 4U);
  EXPECT_EQ(port_counter_bits("link_downed"), 8U);
  EXPECT_EQ(port_counter_bits("symbol_error"), 16U);
  EXPECT_EQ(port_counter_bits("port_xmit_wait"), 32U);
  EXPECT_EQ(port_counter_bits("port_xmit_data"), 64U);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::counters
