#pragma once
// The paired check that answers the change question on a runner without a level of its own
// (issue 51): the baseline's settings (side A) and this run's (side B), launched interleaved on
// this runner by `fabricgate ab`'s sequential design, on the keys set aside as RUNNER-DIFFERS.
// `fabricgate run` launches it when the setup differs from the baseline's only in fabric
// settings it can reproduce (harness/cli/paired_check_launch.hpp) and writes its decision next
// to run.json (paired-check.json); `compare` and `report` read that file, so the one judge
// (judge_run.hpp) applies the same decision everywhere.
//
// Per RUNNER-DIFFERS key: B worse beyond the tolerance (FAIL, BIMODAL, ONLY-A) is REGRESSION, the
// change's; B within it (PASS, IMPROVEMENT) is PASS; anything else (UNDECIDED, TWO-STATES, a key
// the check did not measure) stays RUNNER-DIFFERS with the check's word in its reason: not
// decided is never a pass.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

inline constexpr const char* kPairedCheckSchema = "fabricgate.paired-check/1";
inline constexpr const char* kPairedCheckFile = "paired-check.json";

struct PairedCheckKey {
  std::string verdict;  // the A/B's word: FAIL, PASS, UNDECIDED, ...
  double low = 0;       // performance B vs A (> 1 better), the interval's ends
  double high = 0;
  double tolerance = 0;
  int pairs = 0;  // pairs compared when the verdict was reached
};

struct PairedCheck {
  std::string directory;             // the A/B's launches and ab.json
  std::vector<std::string> a_items;  // side A: the baseline's settings
  std::vector<std::string> b_items;  // side B: this run's
  int pairs = 0;                     // pairs compared
  std::string stop_reason;           // why the series stopped
  std::map<std::string, PairedCheckKey> keys;
};

// The side items of the paired check for a changed setup: per changed fabric setting
// (env/NCCL_*, OMPI_*, FI_*, UCX_* of the fingerprint diff), the baseline's value on side A and
// this run's on side B; a setting one side did not have is unset=NAME there. One list for the
// command the RUNNER-DIFFERS reason prints and the check `run` launches.
struct PairedCheckSides {
  std::vector<std::string> a;
  std::vector<std::string> b;
  std::vector<std::pair<std::string, std::string>> a_sets;  // NAME, VALUE side A sets
};
PairedCheckSides paired_check_sides(const std::vector<verdict::Change>& fingerprint_changes);

nlohmann::json paired_check_to_json(const PairedCheck& p);
// Throws InputError naming the file and field.
PairedCheck paired_check_from_json(const nlohmann::json& doc, const std::string& source);
// <run_dir>/paired-check.json when the run has one.
std::optional<PairedCheck> load_paired_check(const std::filesystem::path& run_dir);

// Applies the check to the RUNNER-DIFFERS keys of `c` and says so in `c.paired_check`. Call
// before the outcome is settled (judge_run does).
void apply_paired_check(verdict::Comparison& c, const PairedCheck& p);

}  // namespace fabricgate::gate
