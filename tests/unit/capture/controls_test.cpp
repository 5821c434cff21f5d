// Control scenarios (P13, P14): their environment, name validation, and verification against
// captured transports and choices.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "harness/analysis/controls.hpp"

namespace fabricgate::capture {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using Env = std::vector<std::pair<std::string, std::string>>;

CaptureSummary with_transports(std::set<std::string> transports,
                               std::set<std::string> networks = {"IB"}) {
  CaptureSummary s;
  s.transports = std::move(transports);
  s.networks = std::move(networks);
  s.lines_recognised = 1;
  return s;
}

TEST(captureControls, ScenarioEnvironments) {
  EXPECT_TRUE(control_scenario("default").env.empty());
  EXPECT_EQ(control_scenario("nvlink-off").env, (Env{{"NCCL_P2P_DISABLE", "1"}}));
  EXPECT_EQ(control_scenario("nic-path").env, (Env{{"NCCL_P2P_DISABLE", "1"},
                                                   {"NCCL_SHM_DISABLE", "1"},
                                                   {"FI_EFA_ENABLE_SHM_TRANSFER", "0"}}));
  EXPECT_EQ(control_scenario("socket-only").env, (Env{{"NCCL_NET", "Socket"}}));
  EXPECT_EQ(control_scenario("algo:ring").env, (Env{{"NCCL_ALGO", "Ring"}}));
  EXPECT_EQ(control_scenario("algo:nvlstree").name, "algo:NVLSTree");
  EXPECT_EQ(control_scenario("algo:Ring,PAT").env, (Env{{"NCCL_ALGO", "Ring,PAT"}}));
  EXPECT_EQ(control_scenario("proto:ll128").env, (Env{{"NCCL_PROTO", "LL128"}}));
}

TEST(captureControls, RejectsUnknownNamesAndShellSyntax) {
  for (const char* bad :
       {"", "nvlink_off", "algo:", "algo:Ring;rm -rf /", "algo:$(id)", "proto:LL ", "proto:^LL",
        "algo:Ring,", "proto:Simple`x`", "socket-only\n", "ALGO:Ring"}) {
    EXPECT_THROW(control_scenario(bad), InputError) << bad;
  }
}

TEST(captureControls, NvlinkOff) {
  const auto c = control_scenario("nvlink-off");
  EXPECT_FALSE(verify_control(c, with_transports({"P2P/CUMEM"})).ok);
  const auto shm = verify_control(c, with_transports({"SHM"}));
  EXPECT_TRUE(shm.ok);
  EXPECT_EQ(shm.message, "P2P disabled; traffic went over SHM");
  EXPECT_FALSE(verify_control(c, CaptureSummary{}).ok);  // nothing captured: not proven
  CaptureSummary contradicted = with_transports({"SHM"});
  contradicted.env_overrides["NCCL_P2P_DISABLE"] = "0";
  EXPECT_FALSE(verify_control(c, contradicted).ok);
}

TEST(captureControls, NicPathNeedsNet) {
  const auto c = control_scenario("nic-path");
  const auto shm = verify_control(c, with_transports({"SHM"}));
  EXPECT_FALSE(shm.ok);
  const auto nothing = verify_control(c, with_transports({"COLLNET/SHARP"}));
  EXPECT_FALSE(nothing.ok);
  EXPECT_EQ(nothing.message, "P2P and SHM disabled but no NET transport seen");
  CaptureSummary ib = with_transports({"NET/IB"});
  ib.gdrdma = true;
  const auto ok = verify_control(c, ib);
  EXPECT_TRUE(ok.ok);
  EXPECT_NE(ok.message.find("NET/IB with GDRDMA"), std::string::npos);
}

TEST(captureControls, SocketOnly) {
  const auto c = control_scenario("socket-only");
  EXPECT_TRUE(verify_control(c, with_transports({"NET/Socket"}, {"Socket"})).ok);
  const auto one_node = verify_control(c, with_transports({"P2P/CUMEM"}, {"Socket"}));
  EXPECT_TRUE(
      one_node.ok);  // what 2x H200 showed: the control is honoured but changes nothing there
  EXPECT_NE(one_node.message.find("no connection used the network"), std::string::npos)
      << one_node.message;
  EXPECT_EQ(verify_control(c, with_transports({"NET/Socket"}, {"Socket"})).message,
            "network is Socket");
  EXPECT_FALSE(verify_control(c, with_transports({"NET/IB"}, {"IB"})).ok);
  EXPECT_FALSE(verify_control(c, with_transports({}, {})).ok);
}

TEST(captureControls, AlgoAndProtoFromTuningOrProfiler) {
  CaptureSummary s = with_transports({"P2P/CUMEM"});
  s.tuning.push_back(TuningChoice{"AllReduce", 8, "Ring", "LL", "", 1, 10});
  EXPECT_TRUE(verify_control(control_scenario("algo:Ring"), s).ok);
  EXPECT_TRUE(verify_control(control_scenario("proto:LL"), s).ok);
  s.tuning.push_back(TuningChoice{"AllReduce", 1 << 20, "Tree", "Simple", "", 24, 3});
  const auto algo = verify_control(control_scenario("algo:Ring"), s);
  EXPECT_FALSE(algo.ok);
  EXPECT_NE(algo.message.find("Tree"), std::string::npos);
  EXPECT_FALSE(verify_control(control_scenario("proto:LL"), s).ok);

  ChoiceSummary profiled;
  profiled.events = 4;
  profiled.algo["Ring"] = 4;
  profiled.proto["Simple"] = 4;
  EXPECT_TRUE(verify_control(control_scenario("algo:Ring"), s, &profiled).ok);
  EXPECT_TRUE(verify_control(control_scenario("proto:Simple"), s, &profiled).ok);
  EXPECT_FALSE(
      verify_control(control_scenario("proto:LL"), CaptureSummary{}).ok);  // nothing to check
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::capture
