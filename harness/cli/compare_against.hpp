#pragma once
// `fabricgate compare NEW... --against OLD...`: is run NEW worse than run OLD, for runs of any
// sessions? The runs are taken as the A/B gate takes its launches (harness/ab/ab_compare.hpp):
// OLD is side A, NEW side B, paired in the order given (OLD1 with NEW1, ...), and each key is
// judged by the A/B interval: the Hodges-Lehmann interval of the pooled repetitions widened by
// Student's t over the pairs' log ratios (the launch-to-launch drift), against the tolerance of the
// platform's baseline policy. One pair cannot measure that drift: its keys stay UNDECIDED (exit 3)
// and the output says how many runs per side it takes. Nothing is launched or recorded.
#include <string>
#include <vector>

#include "harness/model/baseline_location.hpp"

namespace fabricgate::cli {

struct CompareAgainstArgs {
  std::vector<std::string> newer;  // side B: the runs under judgement
  std::vector<std::string> older;  // side A: the runs they are compared with
  std::string baseline;            // the tolerance policy's file (default: the platform's)
  std::string baselines_dir = kBaselinesDir;
  bool force_platform = false;
  std::string format = "console";  // console | markdown | json
  std::string out;
};

// Exit: 0 no key worse, 1 a key of NEW is worse than OLD beyond the tolerance, 2 bad input (runs
// of other platforms without --force-platform, unequal counts, junit), 3 a key not decided.
int run_compare_against(const CompareAgainstArgs& a);

}  // namespace fabricgate::cli
