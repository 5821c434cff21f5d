// The real `fabricgate fingerprint` binary on this machine: exit codes, JSON schema, and (on the
// CPU-only CI machine) the empty GPU section with its reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "core/json_file.hpp"
#include "harness/fingerprint/dynamic_library.hpp"
#include "harness/fingerprint/subprocess.hpp"

namespace fabricgate::fingerprint {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

ProgramResult fabricgate(std::vector<std::string> args) {
  args.insert(args.begin(), FABRICGATE_CLI);
  return run_program(args, 16 * 1024 * 1024, std::chrono::seconds(120));
}

bool has_nvml() { return DynamicLibrary("libnvidia-ml.so.1").loaded(); }

TEST(fingerprint_cli, JsonDocumentOnThisMachine) {
  const auto result = fabricgate({"fingerprint", "--json"});
  ASSERT_TRUE(result.started) << result.start_error;
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json doc =
      parse_json_text(result.out, "fabricgate fingerprint --json", "fabricgate.fingerprint/1");
  for (const char* field :
       {"gpu_model", "gpu_count", "gpu_topology", "cpu_model", "rdma_devices"}) {
    EXPECT_TRUE(doc["identity"].contains(field)) << field;
  }
  for (const char* field : {"driver", "cuda_driver", "cuda_runtime", "nccl", "mpi"}) {
    EXPECT_TRUE(doc["versions"][field].is_string()) << field;
  }
  for (const char* section : {"host", "gpus", "rdma", "nccl", "environment"}) {
    EXPECT_TRUE(doc[section].is_object()) << section;
  }
  EXPECT_TRUE(is_safe_name(doc["platform_key"].get<std::string>()));
  EXPECT_GT(doc["host"]["logical_cores"].get<unsigned>(), 0U);
  EXPECT_FALSE(doc["host"]["glibc"].get<std::string>().empty());
  if (has_nvml()) GTEST_SKIP() << "NVML present: the CPU-only expectations do not apply";
  EXPECT_FALSE(doc["gpus"]["available"].get<bool>());
  EXPECT_NE(doc["gpus"]["reason"].get<std::string>().find("NVML not found"), std::string::npos)
      << doc["gpus"]["reason"];
  EXPECT_TRUE(doc["gpus"]["devices"].empty());
  EXPECT_EQ(doc["identity"]["gpu_count"], 0);
  EXPECT_EQ(doc["platform_key"].get<std::string>().rfind("cpu-", 0), 0U) << doc["platform_key"];
  EXPECT_EQ(doc["platform_key_source"], "derived");
}

// A 60 kB CUDA_VISIBLE_DEVICES and a 100 kB token-shaped fabric setting go through the secret
// redaction as the environment is recorded: no crash (std::regex overflowed the 8 MiB stack at
// about 30 kB), the token redacted, the long harmless value kept (issue 52, round four high 1).
TEST(fingerprint_cli, LongEnvironmentValuesAreRecordedWithoutACrash) {
  const std::string devices(60000, '0');
  const std::string token = "ghp_" + std::string(100000, 'a');
  const auto result =
      run_program({"env", "CUDA_VISIBLE_DEVICES=" + devices, "NCCL_FG_TEST_LONG=" + token,
                   FABRICGATE_CLI, "fingerprint", "--json"},
                  16 * 1024 * 1024, std::chrono::seconds(120));
  ASSERT_TRUE(result.started) << result.start_error;
  ASSERT_EQ(result.exit_code, 0) << result.err.substr(0, 2000);
  const json doc = parse_json_text(result.out, "fabricgate fingerprint --json");
  const json& vars = doc["environment"]["variables"];
  ASSERT_TRUE(vars.contains("NCCL_FG_TEST_LONG")) << doc["environment"].dump().substr(0, 2000);
  EXPECT_EQ(vars["NCCL_FG_TEST_LONG"], "<redacted>");
}

TEST(fingerprint_cli, DefaultIsAShortSummary) {
  const auto result = fabricgate({"fingerprint"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("platform  ", 0), 0U) << result.out;
  EXPECT_NE(result.out.find("\ngpus      "), std::string::npos);
  EXPECT_EQ(result.out.find('{'), std::string::npos);  // not the JSON document
  EXPECT_LT(std::count(result.out.begin(), result.out.end(), '\n'), 40);
}

TEST(fingerprint_cli, OverrideAndAtomicOut) {
  std::random_device seed;
  const auto dir =
      std::filesystem::temp_directory_path() / ("fabricgate-fp-cli-" + std::to_string(seed()));
  std::filesystem::create_directories(dir);
  const auto out = dir / "fingerprint.json";
  const auto result = fabricgate({"fingerprint", "--platform", "lab-box_1", "--out", out.string()});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const json doc = load_json_file(out, "fabricgate.fingerprint/1");
  EXPECT_EQ(doc["platform_key"], "lab-box_1");
  EXPECT_EQ(doc["platform_key_source"], "override");
  EXPECT_NE(result.out.find("lab-box_1"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(fingerprint_cli, UnsafePlatformKeyIsInputError) {
  const auto result = fabricgate({"fingerprint", "--platform", "../x"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("--platform"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("../x"), std::string::npos) << result.err;
  EXPECT_TRUE(result.out.empty());
}

TEST(fingerprint_cli, UnknownFlagIsUsageError) {
  const auto result = fabricgate({"fingerprint", "--no-such-flag"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE((result.out + result.err).find("--no-such-flag"), std::string::npos);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::fingerprint
