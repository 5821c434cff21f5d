#include "harness/launch/suite_env_policy.hpp"

#include <array>

#include "core/errors.hpp"
#include "harness/model/secret_redaction.hpp"

namespace fabricgate::launch {

namespace {

// Variables that load code by themselves (any case is folded: the name rule allows upper case
// only, but a launcher may read either).
constexpr std::array<std::string_view, 17> kLoaderNames{"PATH",
                                                        "PYTHONPATH",
                                                        "PYTHONHOME",
                                                        "PYTHONSTARTUP",
                                                        "PERL5LIB",
                                                        "PERL5OPT",
                                                        "RUBYOPT",
                                                        "NODE_OPTIONS",
                                                        "BASH_ENV",
                                                        "ENV",
                                                        "GCONV_PATH",
                                                        "FI_PROVIDER_PATH",
                                                        "UCX_MODULE_DIR",
                                                        "NCCL_CONF_FILE",
                                                        "CUDA_INJECTION64_PATH",
                                                        "IFS",
                                                        "SHELL"};
// Prefixes of whole families: the loader's LD_*; MPI launchers' parameters (Open MPI/PRRTE/PMIx
// MCA parameters select launch agents and component paths; MPICH's Hydra and Intel MPI name their
// bootstrap executables).
constexpr std::array<std::string_view, 6> kLoaderPrefixes{"LD_",       "OMPI_MCA_", "PRTE_MCA_",
                                                          "PMIX_MCA_", "HYDRA_",    "I_MPI_HYDRA_"};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::string what_it_changes(const std::string& name) {
  if (name.starts_with("LD_")) return "the dynamic loader's libraries";
  if (name.ends_with("_PLUGIN") || name.ends_with("_PLUGIN_PATH") || name == "FI_PROVIDER_PATH" ||
      name == "UCX_MODULE_DIR" || name == "NCCL_CONF_FILE" || name == "CUDA_INJECTION64_PATH")
    return "the plugins or configuration a library loads";
  if (name.find("_MCA_") != std::string::npos || name.starts_with("HYDRA_") ||
      name.starts_with("I_MPI_HYDRA_"))
    return "the MPI launcher's agents and components";
  return "which programs and scripts run";
}

}  // namespace

bool is_launcher_env(std::string_view name) {
  const std::string n = upper(name);
  for (const std::string_view exact : kLoaderNames) {
    if (n == exact) return true;
  }
  for (const std::string_view prefix : kLoaderPrefixes) {
    if (n.starts_with(prefix)) return true;
  }
  // NCCL_NET_PLUGIN, NCCL_TUNER_PLUGIN, NCCL_PROFILER_PLUGIN, NCCL_ENV_PLUGIN and their kin in
  // other libraries: a path or name that gets dlopen'ed.
  return n.ends_with("_PLUGIN") || n.ends_with("_PLUGIN_PATH") || n.ends_with("_PLUGIN_DIR");
}

void refuse_launcher_env(const Suite& suite, bool allowed) {
  if (allowed) return;
  for (const auto& [name, value] : suite.env) {
    if (!is_launcher_env(name)) continue;
    throw InputError(suite.file.string(), "/env/" + name,
                     "no variable that changes " + what_it_changes(upper(name)) +
                         " (it would reach mpirun and every rank); pass " +
                         std::string(kAllowLauncherEnvFlag) + " if this suite is meant to set it");
  }
}

std::string suite_env_summary(const Suite& suite) {
  std::string out;
  for (const auto& [name, value] : suite.env) {
    if (!out.empty()) out += ", ";
    out += name + "=" + recordable_value(name, value);
  }
  return out;
}

}  // namespace fabricgate::launch
