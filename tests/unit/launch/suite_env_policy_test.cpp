// A suite's env may not change what the launcher and the ranks load unless the person running
// allows it; what it sets is printable with secrets redacted.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "harness/launch/suite_env_policy.hpp"

namespace fabricgate::launch {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

Suite with_env(std::map<std::string, std::string> env) {
  Suite s;
  s.file = "suites/x.json";
  s.name = "x";
  s.env = std::move(env);
  return s;
}

TEST(launch_SuiteEnvPolicy, LauncherAndLoaderVariablesNeedTheFlag) {
  for (const char* name : {"LD_PRELOAD",
                           "LD_LIBRARY_PATH",
                           "LD_AUDIT",
                           "LD_DEBUG_OUTPUT",
                           "PATH",
                           "PYTHONPATH",
                           "PYTHONHOME",
                           "NCCL_NET_PLUGIN",
                           "NCCL_TUNER_PLUGIN",
                           "NCCL_PROFILER_PLUGIN",
                           "NCCL_ENV_PLUGIN",
                           "NCCL_CONF_FILE",
                           "FI_PROVIDER_PATH",
                           "UCX_MODULE_DIR",
                           "OMPI_MCA_PLM_RSH_AGENT",
                           "OMPI_MCA_ORTE_LAUNCH_AGENT",
                           "PRTE_MCA_PLM_SSH_AGENT",
                           "HYDRA_LAUNCHER_EXEC",
                           "I_MPI_HYDRA_BOOTSTRAP_EXEC",
                           "BASH_ENV",
                           "NODE_OPTIONS",
                           "CUDA_INJECTION64_PATH"}) {
    EXPECT_TRUE(is_launcher_env(name)) << name;
    const Suite s = with_env({{"NCCL_DEBUG", "INFO"}, {name, "/tmp/x"}});
    try {
      refuse_launcher_env(s, false);
      ADD_FAILURE() << name << " accepted";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(std::string("suites/x.json: field /env/") + name), std::string::npos)
          << what;
      EXPECT_NE(what.find("--allow-suite-launcher-env"), std::string::npos) << what;
    }
    EXPECT_NO_THROW(refuse_launcher_env(s, true)) << name;
  }
  for (const char* name : {"NCCL_DEBUG", "NCCL_IB_HCA", "NCCL_NVLS_ENABLE", "CUDA_VISIBLE_DEVICES",
                           "NCCL_SOCKET_IFNAME", "UCX_TLS", "FI_PROVIDER", "OMP_NUM_THREADS"}) {
    EXPECT_FALSE(is_launcher_env(name)) << name;
  }
  EXPECT_NO_THROW(refuse_launcher_env(with_env({{"NCCL_DEBUG", "INFO"}}), false));
}

TEST(launch_SuiteEnvPolicy, SummaryNamesEveryOverrideAndRedactsSecrets) {
  const Suite s = with_env({{"NCCL_DEBUG", "INFO"},
                            {"MY_API_TOKEN", "abc123"},
                            {"NCCL_IB_HCA", "mlx5_0:1"},
                            {"PROXY", "https://alice:pw@proxy.example:8080"}});
  const std::string text = suite_env_summary(s);
  EXPECT_NE(text.find("NCCL_DEBUG=INFO"), std::string::npos) << text;
  EXPECT_NE(text.find("NCCL_IB_HCA=mlx5_0:1"), std::string::npos) << text;
  EXPECT_NE(text.find("MY_API_TOKEN=<redacted>"), std::string::npos) << text;
  EXPECT_EQ(text.find("abc123"), std::string::npos) << text;
  EXPECT_EQ(text.find("alice:pw"), std::string::npos) << text;
  EXPECT_EQ(suite_env_summary(with_env({})), "");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::launch
