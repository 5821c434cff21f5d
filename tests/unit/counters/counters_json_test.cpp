// run.json "runner_counters": what is written reads back the same, and bad input names the file
// and the JSON pointer.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "harness/model/counters/counters_json.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::counters {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

RunnerCounters sample() {
  RunnerCounters c;
  c.present = true;
  c.wall_s = 12.5;
  c.snapshot_ms = 3.25;
  c.processes_checked = true;
  DeviceCounters port;
  port.kind = "rdma";
  port.device = "mlx5_0";
  port.port = 1;
  port.identity = "mlx5_core, InfiniBand";
  port.counters = {{"rnr_nak_retry_err", 4294967290ULL, 3, 9, "wrapped at 2^32 (one wrap assumed)"},
                   {"port_xmit_data", 1ULL << 40, (1ULL << 40) + 5, 5, ""}};
  port.gauges = {{"state_code", 4.0, 1.0}, {"rate_Gbps", 400.0, std::nullopt}};
  DeviceCounters g;
  g.kind = "gpu";
  g.device = "GPU 0";
  g.vanished = true;
  g.events = {"hw_slowdown", "xid 79"};
  g.unread = {{"*", "the device was gone at the end of the launch"}};
  c.devices = {port, g};
  c.foreign_processes = {{4242, "python3", 0, "GPU-aaaa", 3ULL << 30, 97.5, "start+end"}};
  c.unread = {{"rdma", "no RDMA driver loaded"}};
  return c;
}

TEST(counters_json, round_trip_keeps_every_field) {
  const RunnerCounters c = sample();
  const RunnerCounters back = runner_counters_from_json(to_json(c), "run.json", "/runner_counters");
  EXPECT_TRUE(back.present);
  EXPECT_EQ(back.wall_s, 12.5);
  EXPECT_EQ(back.snapshot_ms, 3.25);
  EXPECT_TRUE(back.processes_checked);
  ASSERT_EQ(back.devices.size(), 2U);
  const DeviceCounters& p = back.devices[0];
  EXPECT_EQ(p.port, 1U);
  EXPECT_EQ(p.identity, "mlx5_core, InfiniBand");
  ASSERT_NE(p.counter("rnr_nak_retry_err"), nullptr);
  EXPECT_EQ(p.counter("rnr_nak_retry_err")->start, 4294967290ULL);
  EXPECT_EQ(p.counter("rnr_nak_retry_err")->delta, 9U);
  EXPECT_EQ(p.counter("rnr_nak_retry_err")->note, "wrapped at 2^32 (one wrap assumed)");
  EXPECT_EQ(p.counter("port_xmit_data")->end, (1ULL << 40) + 5);
  EXPECT_EQ(*p.gauge("state_code")->end, 1.0);
  EXPECT_FALSE(p.gauge("rate_Gbps")->end.has_value());
  const DeviceCounters& g = back.devices[1];
  EXPECT_TRUE(g.vanished);
  EXPECT_EQ(g.events, (std::vector<std::string>{"hw_slowdown", "xid 79"}));
  ASSERT_EQ(back.foreign_processes.size(), 1U);
  EXPECT_EQ(back.foreign_processes[0].pid, 4242U);
  EXPECT_EQ(back.foreign_processes[0].used_memory_bytes, 3ULL << 30);
  EXPECT_EQ(*back.foreign_processes[0].sm_percent, 97.5);
  EXPECT_EQ(back.foreign_processes[0].seen, "start+end");
  ASSERT_EQ(back.unread.size(), 1U);
  EXPECT_EQ(back.unread[0].what, "rdma");
}

TEST(counters_json, compact_form_keeps_only_what_moved) {
  const nlohmann::json c = compact_json(sample());
  // port_xmit_data moved by 5, rnr_nak_retry_err by 9 with its note; the vanished GPU is kept
  EXPECT_EQ(c["devices"]["mlx5_0/1"]["deltas"]["port_xmit_data"], 5);
  EXPECT_EQ(c["devices"]["mlx5_0/1"]["deltas"]["rnr_nak_retry_err"]["delta"], 9);
  EXPECT_EQ(c["devices"]["GPU 0"]["vanished"], true);
  EXPECT_EQ(c["devices"]["GPU 0"]["events"].size(), 2U);
  EXPECT_EQ(c["foreign_processes"][0]["pid"], 4242);
  RunnerCounters quiet = sample();
  quiet.devices[0].counters = {{"symbol_error", 7, 7, 0, ""}};
  quiet.devices.pop_back();
  EXPECT_TRUE(compact_json(quiet)["devices"].empty());
}

void expect_error(nlohmann::json doc, const std::string& pointer, const std::string& expectation) {
  try {
    runner_counters_from_json(doc, "run.json", "/runner_counters");
    FAIL() << "accepted " << doc.dump();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "run.json");
    EXPECT_EQ(e.field(), pointer);
    EXPECT_NE(std::string(e.what()).find(expectation), std::string::npos) << e.what();
  }
}

TEST(counters_json, bad_input_names_the_pointer) {
  nlohmann::json doc = to_json(sample());
  doc["devices"][0]["counters"]["port_xmit_data"]["delta"] = -1;
  expect_error(doc, "/runner_counters/devices/0/counters/port_xmit_data/delta",
               "a non-negative integer");
  doc = to_json(sample());
  doc["devices"][1]["kind"] = "fpga";
  expect_error(doc, "/runner_counters/devices/1/kind", "rdma");
  doc = to_json(sample());
  doc["foreign_processes"][0]["pid"] = 0;
  expect_error(doc, "/runner_counters/foreign_processes/0/pid", "a process id");
  doc = to_json(sample());
  doc["wall_s"] = "long";
  expect_error(doc, "/runner_counters/wall_s", "a finite number or null");
  expect_error(nlohmann::json::array(), "/runner_counters", "an object");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::counters

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

nlohmann::json minimal_run() {
  return {{"schema", "fabricgate.run/1"}, {"run_id", "r1"},
          {"platform", "h200"},           {"complete", true},
          {"launch", {{"nranks", 1}}},    {"benchmarks", nlohmann::json::array()}};
}

// The run record reads the section (and a run without one is a run before counters existed).
TEST(counters_json, run_record_reads_the_section_and_names_bad_fields) {
  EXPECT_FALSE(parse_run(minimal_run(), "run.json").runner_counters.present);
  nlohmann::json doc = minimal_run();
  doc["runner_counters"] = counters::to_json(counters::RunnerCounters{});
  doc["runner_counters"]["foreign_processes"] = {{{"pid", 4242}, {"name", "python3"}}};
  const RunRecord run = parse_run(doc, "run.json");
  EXPECT_TRUE(run.runner_counters.present);
  ASSERT_EQ(run.runner_counters.foreign_processes.size(), 1U);
  EXPECT_EQ(run.runner_counters.foreign_processes[0].name, "python3");
  doc["runner_counters"]["snapshot_ms"] = -3;
  try {
    parse_run(doc, "run.json");
    FAIL() << "a negative snapshot_ms was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "/runner_counters/snapshot_ms");
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
