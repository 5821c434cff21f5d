#pragma once
// A suite's "env" goes to every rank and to the launcher itself (mpirun, srun). Most of it tunes
// NCCL or MPI; some of it decides which programs and libraries get loaded: the dynamic loader's
// variables, PATH and interpreter search paths, plugin paths that NCCL, libfabric or UCX dlopen,
// and MPI launcher agents. A suite that sets one of those runs code the suite's author chose on
// every node, so it is refused (exit 2) unless the person running asks for it with
// --allow-suite-launcher-env. Whatever a suite sets is printed before the launch, values redacted
// where they look like secrets (harness/model/secret_redaction.hpp).
#include <string>
#include <string_view>

#include "core/suite.hpp"

namespace fabricgate::launch {

inline constexpr std::string_view kAllowLauncherEnvFlag = "--allow-suite-launcher-env";

// Whether setting `name` changes which launcher, loader, library or plugin runs.
bool is_launcher_env(std::string_view name);

// InputError (the suite file, /env/NAME, what it changes and the flag) for the first launcher
// variable in the suite's env, unless `allowed`.
void refuse_launcher_env(const Suite& suite, bool allowed);

// "NCCL_DEBUG=INFO, NCCL_IB_HCA=mlx5_0" (secret values redacted), "" when the suite sets nothing.
std::string suite_env_summary(const Suite& suite);

}  // namespace fabricgate::launch
