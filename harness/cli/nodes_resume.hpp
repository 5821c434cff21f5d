#pragma once
// `fabricgate nodes --resume [--apply]`: returns to service the nodes fabricgate drained, and only
// those, once they have proven themselves again (issue 55). A node qualifies when Slurm holds it
// drained with a Reason that starts "fabricgate:" (node_actions.cpp writes it; a node someone else
// drained is never touched), and the results store holds at least `resume_after_passing_runs`
// (policies/nodes.json, default 2) runs that include it, started after it was drained (Slurm's
// "[user@time]" stamp on the Reason), whose outcome was PASS or NO BASELINE (nothing failed, no
// node blamed), and whose seal this machine's host key verifies (row_seal.hpp: a row anyone could
// write must not bring a broken node back). A dry run unless `apply`.
#include <string>

namespace fabricgate::cli {

struct ResumeArgs {
  std::string store;  // --store, else $FABRICGATE_STORE, else results/fabricgate.sqlite
  bool apply = false;
  int timeout_s = 30;
};

// Exit: 0 (nothing to resume, or resumed / planned), 2 bad input, 3 Slurm or the store failed.
int run_nodes_resume(const ResumeArgs& a);

}  // namespace fabricgate::cli
