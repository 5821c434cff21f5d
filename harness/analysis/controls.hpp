#pragma once
// Control scenarios (P13, P14): a named set of environment variables applied to a FRESH process
// (NCCL reads its environment once per process), and a check that the captured transports show
// the control took effect — a control that silently did nothing proves nothing.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/choice_summary.hpp"
#include "harness/analysis/capture_summary.hpp"

namespace fabricgate::capture {

struct ControlScenario {
  std::string name;  // canonical: "default", "nvlink-off", "nic-path", "socket-only",
                     // "algo:Ring", "proto:LL" (NCCL's spelling of the names)
  std::vector<std::pair<std::string, std::string>> env;  // in the order to set them
  std::string purpose;                                   // one line for reports
};

// Names accepted: default, nvlink-off, nic-path, socket-only, algo:<A>[,<A>...],
// proto:<P>[,<P>...] with A in Ring, Tree, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT and
// P in LL, LL128, Simple (case-insensitive, returned in NCCL's spelling). Anything else —
// including shell syntax, spaces, '^' exclusions — throws fabricgate::InputError.
ControlScenario control_scenario(std::string_view name);

// The fixed scenario names (algo:/proto: families listed as "algo:<name>", "proto:<name>").
std::vector<std::string> control_scenario_names();

struct ControlCheck {
  bool ok = false;
  std::string message;
};

// Verifies a control against what NCCL reported. `choices` (profiler capture) is used for algo:
// and proto: controls when given; otherwise the TUNING lines of the logs are used.
ControlCheck verify_control(const ControlScenario& control, const CaptureSummary& captured,
                            const ChoiceSummary* choices = nullptr);

}  // namespace fabricgate::capture
