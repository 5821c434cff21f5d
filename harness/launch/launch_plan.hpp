#pragma once
// How the bench is started: through the MPI/Slurm launcher a cluster already has (mpirun with a
// hostfile, srun with PMIx), or directly when we are already a rank of an MPI job. Pure: the
// command line is computed from the request and what was found on the machine, so it is tested
// without launching anything.
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fabricgate::launch {

struct LaunchRequest {
  std::string launcher = "auto";  // auto | mpirun | srun | direct
  int ranks = 1;
  std::vector<std::string> bench_command;  // fabricgate-bench and its arguments
  std::map<std::string, std::string> env;  // set for every rank
  std::vector<std::string> forward_env;    // names from our environment every rank must see
  std::set<std::string> env_unset;  // removed from the environment the launcher and ranks inherit
  std::string hostfile;
  std::vector<std::string> extra_launcher_args;  // e.g. --mca options, passed before the program
};

struct LaunchContext {
  bool inside_mpi_job = false;    // OMPI_COMM_WORLD_SIZE / PMI_SIZE / PMIX_RANK set
  bool inside_slurm_job = false;  // SLURM_JOB_ID set
  bool have_mpirun = false;
  bool have_srun = false;
  bool is_root = false;
};

struct LaunchPlan {
  std::string launcher;  // what was chosen
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;  // for the launcher process itself
  std::set<std::string> env_unset;         // removed from the launcher's inherited environment
};

// Throws InputError for impossible requests (srun asked for but absent, direct with ranks > 1
// outside a job…).
LaunchPlan plan_launch(const LaunchRequest& request, const LaunchContext& context);
// Reads the context from this process's environment and PATH.
LaunchContext detect_launch_context();

}  // namespace fabricgate::launch
