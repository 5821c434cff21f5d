#pragma once
// One key's roofline judgement: plain data that the gate turns into a verdict and every report
// reads (the ceiling and floor drawn are the ones that judged).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/roofline/policy.hpp"

namespace fabricgate::roofline {

enum class Status {
  within,        // at or above the floor
  below_floor,   // BELOW-ROOFLINE: fails the gate
  no_floor,      // the ceiling is known, the policy sets no floor for this tier and size
  not_physical,  // NOT-PHYSICAL: above the tier (NVLS, trees): never judged (P10)
  tier_unknown,  // the fingerprint cannot say what bounds this key
};
const char* status_name(Status s);  // "within", "BELOW-ROOFLINE", ...

struct RooflineFinding {
  std::string key;
  std::uint64_t bytes = 0;
  Status status = Status::tier_unknown;
  std::string tier;
  std::string spec;
  Direction direction = Direction::unidirectional;
  std::string metric;       // what was compared: "algbw", "busbw", ...
  double ceiling_GBps = 0;  // 0 when the tier is unknown
  double measured_GBps = 0;
  double fraction = 0;          // measured / ceiling
  std::optional<double> floor;  // fraction of the ceiling; absent: no floor here
  std::string floor_source;     // the policy rule's public source
  std::vector<std::string> causes;
  std::string text;  // one line: what was judged, with numbers

  // DIP (judge.hpp): bandwidth fell by more than the policy allows from the previous size.
  bool dip = false;
  std::uint64_t dip_from_bytes = 0;
  std::string dip_from_key;  // the smaller size's key: a confirmation launch re-measures both
  std::string dip_text;

  bool fails() const { return status == Status::below_floor || dip; }
};

}  // namespace fabricgate::roofline
