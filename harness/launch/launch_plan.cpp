#include "harness/launch/launch_plan.hpp"

#include <unistd.h>

#include <cstdlib>

#include "core/errors.hpp"
#include "harness/launch/process.hpp"

namespace fabricgate::launch {

namespace {

std::string choose(const LaunchRequest& r, const LaunchContext& c) {
  if (r.launcher != "auto") return r.launcher;
  if (c.inside_mpi_job) return "direct";
  if (c.inside_slurm_job && c.have_srun) return "srun";
  if (c.have_mpirun) return "mpirun";
  if (r.ranks == 1) return "direct";
  throw InputError("--launcher", "",
                   "mpirun or srun to start " + std::to_string(r.ranks) +
                       " ranks, but neither is in PATH (apt-get install openmpi-bin)");
}

}  // namespace

LaunchPlan plan_launch(const LaunchRequest& r, const LaunchContext& c) {
  if (r.ranks < 1) throw InputError("--ranks", "", "at least 1 rank");
  LaunchPlan plan;
  plan.launcher = choose(r, c);
  plan.env = r.env;
  plan.env_unset = r.env_unset;
  if (plan.launcher == "direct") {
    if (r.ranks > 1 && !c.inside_mpi_job) {
      throw InputError(
          "--launcher", "",
          "mpirun or srun for " + std::to_string(r.ranks) + " ranks (direct runs one process)");
    }
    plan.argv = r.bench_command;
    return plan;
  }
  if (plan.launcher == "mpirun") {
    if (!c.have_mpirun)
      throw InputError("--launcher", "", "mpirun in PATH (apt-get install openmpi-bin)");
    plan.argv = {"mpirun", "-np", std::to_string(r.ranks)};
    if (c.is_root) plan.argv.push_back("--allow-run-as-root");
    // More ranks than cores is normal on CI runners (host collectives, 2 cores); harmless on GPU
    // hosts where ranks = GPUs < cores.
    plan.argv.push_back("--oversubscribe");
    if (!r.hostfile.empty()) {
      plan.argv.push_back("--hostfile");
      plan.argv.push_back(r.hostfile);
    }
    // -x makes Open MPI export the variable to remote ranks too (NCCL_NVLS_ENABLE=0 must reach
    // every rank on every node).
    for (const auto& [k, v] : r.env) {
      plan.argv.push_back("-x");
      plan.argv.push_back(k + "=" + v);
    }
    for (const auto& name : r.forward_env) {
      if (r.env.count(name) || r.env_unset.count(name)) continue;
      plan.argv.push_back("-x");
      plan.argv.push_back(name);
    }
  } else if (plan.launcher == "srun") {
    if (!c.have_srun)
      throw InputError("--launcher", "", "srun in PATH (inside a Slurm allocation)");
    // srun exports the caller's whole environment by default; plan.env is set on srun itself.
    plan.argv = {"srun", "--mpi=pmix", "-n", std::to_string(r.ranks)};
  } else {
    throw InputError("--launcher", "",
                     "auto, mpirun, srun or direct, found \"" + plan.launcher + "\"");
  }
  plan.argv.insert(plan.argv.end(), r.extra_launcher_args.begin(), r.extra_launcher_args.end());
  plan.argv.insert(plan.argv.end(), r.bench_command.begin(), r.bench_command.end());
  return plan;
}

LaunchContext detect_launch_context() {
  LaunchContext c;
  c.inside_mpi_job =
      std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK");
  c.inside_slurm_job = std::getenv("SLURM_JOB_ID") != nullptr;
  c.have_mpirun = !find_in_path("mpirun").empty();
  c.have_srun = !find_in_path("srun").empty();
  c.is_root = ::geteuid() == 0;
  return c;
}

}  // namespace fabricgate::launch
