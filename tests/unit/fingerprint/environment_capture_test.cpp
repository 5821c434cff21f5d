// Environment capture: which variables are kept, and secrets redacted by name and in URLs.
#include "harness/fingerprint/environment_capture.hpp"

#include <gtest/gtest.h>

namespace fabricgate::fingerprint {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(fingerprint_environment, KeepsFabricVariablesAndRedactsSecrets) {
  const json env = capture_environment({
      "NCCL_IB_HCA=mlx5_0,mlx5_1",
      "NCCL_FOO_TOKEN=abc123",
      "FI_PROVIDER=efa",
      "OMPI_MY_SECRET_KEY=hunter2",
      "SLURM_JOB_PASSWORD=pw",
      "UCX_api_key=lower-case-name",
      "CUDA_VISIBLE_DEVICES=0,1",
      "PMIX_RANK=0",
      "HOME=/root",
      "FOO_TOKEN=not-relevant-so-not-captured",
      "PATH=/usr/bin",
      "GITHUB_TOKEN=ghp_secret",
  });
  const json& vars = env["variables"];
  EXPECT_EQ(vars["NCCL_IB_HCA"], "mlx5_0,mlx5_1");
  EXPECT_EQ(vars["FI_PROVIDER"], "efa");
  EXPECT_EQ(vars["CUDA_VISIBLE_DEVICES"], "0,1");
  EXPECT_EQ(vars["PMIX_RANK"], "0");
  EXPECT_EQ(vars["NCCL_FOO_TOKEN"], "<redacted>");
  EXPECT_EQ(vars["OMPI_MY_SECRET_KEY"], "<redacted>");
  EXPECT_EQ(vars["SLURM_JOB_PASSWORD"], "<redacted>");
  EXPECT_EQ(vars["UCX_api_key"], "<redacted>");
  EXPECT_FALSE(vars.contains("HOME"));
  EXPECT_FALSE(vars.contains("PATH"));
  EXPECT_FALSE(vars.contains("GITHUB_TOKEN"));
  EXPECT_FALSE(vars.contains("FOO_TOKEN"));
  EXPECT_EQ(env["redacted"],
            (json{"NCCL_FOO_TOKEN", "OMPI_MY_SECRET_KEY", "SLURM_JOB_PASSWORD", "UCX_api_key"}));
  // No secret value anywhere in the document.
  const std::string text = env.dump();
  for (const char* secret : {"abc123", "hunter2", "ghp_secret", "lower-case-name"}) {
    EXPECT_EQ(text.find(secret), std::string::npos) << secret;
  }
}

TEST(fingerprint_environment, UrlCredentialsAndAwsNamesAreRedacted) {
  const json env = capture_environment({
      "UCX_PROXY=http://alice:pw-one@proxy:3128",
      "FI_EXTRA_URLS=https://ghp_tok@github.com/x,https://h2/y",
      "OMPI_MCA_AWS_ACCESS_KEY=AKIAEXAMPLE",
      "NCCL_PASSWD=pw-two",
      "NCCL_SOCKET_IFNAME=eth0",
  });
  const json& vars = env["variables"];
  EXPECT_EQ(vars["UCX_PROXY"], "http://<redacted>@proxy:3128");
  EXPECT_EQ(vars["FI_EXTRA_URLS"], "https://<redacted>@github.com/x,https://h2/y");
  EXPECT_EQ(vars["OMPI_MCA_AWS_ACCESS_KEY"], "<redacted>");
  EXPECT_EQ(vars["NCCL_PASSWD"], "<redacted>");
  EXPECT_EQ(vars["NCCL_SOCKET_IFNAME"], "eth0");
  EXPECT_EQ(env["redacted"],
            (json{"FI_EXTRA_URLS", "NCCL_PASSWD", "OMPI_MCA_AWS_ACCESS_KEY", "UCX_PROXY"}));
  const std::string text = env.dump();
  for (const char* secret : {"pw-one", "ghp_tok", "AKIAEXAMPLE", "pw-two", "alice"}) {
    EXPECT_EQ(text.find(secret), std::string::npos) << secret;
  }
}

TEST(fingerprint_environment, NameRules) {
  EXPECT_TRUE(is_secret_variable("FOO_TOKEN"));
  EXPECT_TRUE(is_secret_variable("MY_SECRET_KEY"));
  EXPECT_TRUE(is_secret_variable("db_password"));
  EXPECT_FALSE(is_secret_variable("NCCL_IB_HCA"));
  EXPECT_TRUE(is_relevant_variable("NCCL_IB_HCA"));
  EXPECT_TRUE(is_relevant_variable("LD_LIBRARY_PATH"));
  EXPECT_TRUE(is_relevant_variable("NVIDIA_VISIBLE_DEVICES"));
  EXPECT_FALSE(is_relevant_variable("NVIDIA_REQUIRE_CUDA"));
  EXPECT_FALSE(is_relevant_variable("XNCCL_DEBUG"));
}

TEST(fingerprint_environment, MalformedEntriesAndLookup) {
  const json env =
      capture_environment({"NCCL_DEBUG", "=x", "NCCL_DEBUG=INFO", "NCCL_DEBUG=WARN", "NCCL_ALGO="});
  EXPECT_EQ(env["variables"].size(), 2U);
  EXPECT_EQ(env["variables"]["NCCL_DEBUG"], "INFO");  // first definition wins, like getenv
  EXPECT_EQ(env["variables"]["NCCL_ALGO"], "");
  EXPECT_EQ(environment_value({"HOMEX=1", "HOME=/h"}, "HOME"), "/h");
  EXPECT_EQ(environment_value({}, "HOME"), "");
  EXPECT_FALSE(process_environment().empty());
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::fingerprint
