// The "capture" object of run.json and the log fallback for per-benchmark choices.
#include <gtest/gtest.h>

#include "harness/analysis/capture_json.hpp"
#include "log_writer.hpp"

namespace fabricgate::capture {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(captureJson, DesignFieldsArePresent) {
  testing::LogWriter w("h", 1, 0);
  w.info("%s", "NCCL version 2.28.3+cuda13.0");
  w.info("Using network %s", "IB");
  w.info("Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d%s%s%s", 0, 0, 0, 0, 1, 1, "IB", 0,
         "/GDRDMA", "", "");
  w.info("NCCL_ALGO set by environment to %s", "Ring");
  const json doc = capture_to_json(parse_nccl_logs({w.text()}));
  EXPECT_EQ(doc.at("path"), "log");
  EXPECT_EQ(doc.at("nccl_version"), "2.28.3");
  EXPECT_EQ(doc.at("network"), "IB");
  EXPECT_EQ(doc.at("transports"), json::array({"NET/IB"}));
  EXPECT_EQ(doc.at("gdrdma"), true);
  EXPECT_EQ(doc.at("env_overrides").at("NCCL_ALGO"), "Ring");
  EXPECT_TRUE(doc.at("nvls_available").is_null());
  EXPECT_EQ(capture_to_json(CaptureSummary{}).at("path"), "none");
  EXPECT_EQ(capture_to_json(CaptureSummary{}, "profiler").at("path"), "profiler");
}

TEST(captureJson, EnvOverridesAreRecordedWithoutSecrets) {
  testing::LogWriter w("h", 1, 0);
  w.info("NCCL_NET_TOKEN set by environment to %s", "s3cret");
  w.info("NCCL_NET_PLUGIN set by environment to %s", "https://u:pw@host/plugin.so");
  const json doc = capture_to_json(parse_nccl_logs({w.text()}));
  EXPECT_EQ(doc.at("env_overrides").at("NCCL_NET_TOKEN"), "<redacted>");
  EXPECT_EQ(doc.at("env_overrides").at("NCCL_NET_PLUGIN"), "https://<redacted>@host/plugin.so");
  EXPECT_EQ(doc.dump().find("s3cret"), std::string::npos);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::capture
