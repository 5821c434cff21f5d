#pragma once
// fabricgate ack --label false-alarm|real|expected --run RUN_ID --platform P --who NAME
// [KEY | --finding ID --node N] [--reason URL] [--store URL]: records in the results store what a
// person found one finding of a recorded run to be (issue 56 item 2). The dashboard's measured
// precision per platform counts these labels. Only a failure can be labelled: the run's outcome
// FAIL (no subject), a key whose recorded verdict failed or warned, or a node finding the run
// recorded; anything else is an input error (exit 2) before the store is written.
#include <string>

namespace fabricgate::cli {

struct LabelArgs {
  std::string label;     // false-alarm | real | expected
  std::string run_id;    // the recorded run
  std::string platform;  // its platform
  std::string key;       // a key of the run, or ""
  std::string finding;   // with node: a node finding of the run, or ""
  std::string node;
  std::string who;
  std::string note;   // the URL, or ""
  std::string store;  // results store (default as `run`)
};

int record_finding_label(const LabelArgs& a);

}  // namespace fabricgate::cli
