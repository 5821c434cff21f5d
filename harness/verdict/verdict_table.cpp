#include "harness/verdict/verdict_table.hpp"

#include <array>
#include <cstddef>

namespace fabricgate::verdict {

namespace {

using S = VerdictStyle;

// clang-format off
// verdict                    name                 fails  warns  remeas join   drift  gated  load   runner unjudg style
constexpr std::array kTable{
  VerdictFacts{Verdict::invalid,           "INVALID",           true,  false, false, false, false, true,  false, false, false, S::fail,
               "a PITFALLS error (e.g. P01) or a benchmark that errored"},
  VerdictFacts{Verdict::wrong_results,     "WRONG-RESULTS",     true,  false, false, false, false, true,  false, false, false, S::fail,
               "the collective's data check failed"},
  VerdictFacts{Verdict::transport_changed, "TRANSPORT-CHANGED", true,  false, false, false, false, true,  false, false, false, S::fail,
               "network, transports, GPUDirect RDMA or libfabric provider differ (P05/P06)"},
  VerdictFacts{Verdict::algo_changed,      "ALGO-CHANGED",      true,  false, false, false, false, true,  false, false, false, S::fail,
               "NCCL's algorithm or protocol set differs (P19)"},
  VerdictFacts{Verdict::regression,        "REGRESSION",        true,  false, true,  false, false, true,  true,  false, false, S::fail,
               "worse than the band in the launch and in its confirmations"},
  VerdictFacts{Verdict::below_roofline,    "BELOW-ROOFLINE",    true,  false, false, false, false, true,  true,  true,  false, S::fail,
               "under the roofline floor of its tier: the hardware should do better (docs/ROOFLINE.md)"},
  VerdictFacts{Verdict::dip,               "DIP",               true,  false, true,  false, false, true,  true,  false, false, S::fail,
               "bandwidth falls as the size grows, in the launch and in its confirmations"},
  VerdictFacts{Verdict::drift,             "DRIFT",             true,  false, false, false, false, true,  true,  false, false, S::fail,
               "passed, but the recent runs of this host sit on a worse level"},
  VerdictFacts{Verdict::missing,           "MISSING",           true,  false, false, false, false, true,  false, false, false, S::fail,
               "in the baseline, not measured by the run"},
  VerdictFacts{Verdict::acked,             "ACKED",             false, true,  false, false, false, true,  false, false, false, S::warn,
               "failed the gate, acknowledged in the acks file until its expiry"},
  VerdictFacts{Verdict::runner_differs,    "RUNNER-DIFFERS",    false, true,  false, false, false, false, false, false, true,  S::warn,
               "outside the fleet on a host with no history of its own: the change is not judged here"},
  VerdictFacts{Verdict::unstable,          "UNSTABLE",          false, true,  true,  false, false, false, false, false, false, S::warn,
               "the launch's repetitions disagree: not judged"},
  VerdictFacts{Verdict::ambiguous,         "AMBIGUOUS",         false, true,  false, false, true,  true,  false, false, false, S::warn,
               "crossed the band in some launches, not in all of its confirmations"},
  VerdictFacts{Verdict::jitter,            "JITTER",            false, true,  false, false, false, true,  false, false, false, S::warn,
               "passed, but the launch's p99/p50 time is beyond the baseline's launches"},
  VerdictFacts{Verdict::noisy,             "NOISY",             false, false, false, true,  false, false, false, false, false, S::info,
               "the baseline's band is wider than max_band: not gated (beyond even that band: REGRESSION)"},
  VerdictFacts{Verdict::unmeasured,        "UNMEASURED",        false, false, false, true,  false, false, false, false, false, S::info,
               "the baseline's launches come from fewer sittings than min_sessions: the noise between sittings is unmeasured, not gated"},
  VerdictFacts{Verdict::improvement,       "IMPROVEMENT",       false, false, false, true,  false, true,  false, false, false, S::pass,
               "better than the band"},
  VerdictFacts{Verdict::new_key,           "NEW",               false, false, false, false, true,  false, false, false, false, S::info,
               "not in the baseline: not gated"},
  VerdictFacts{Verdict::pass,              "PASS",              false, false, false, true,  true,  true,  false, false, false, S::pass,
               "inside the band"},
  VerdictFacts{Verdict::skipped,           "SKIPPED",           false, false, false, false, false, false, false, false, false, S::skip,
               "not measured on this machine (the reason is given)"},
};
// clang-format on

constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < kTable.size(); ++i) {
    if (static_cast<std::size_t>(kTable[i].verdict) != i) return false;
  }
  return true;
}
static_assert(rows_in_enum_order(), "one row per Verdict, in the enum's order");
static_assert(kTable.size() == static_cast<std::size_t>(Verdict::skipped) + 1,
              "a Verdict without a row");

}  // namespace

std::span<const VerdictFacts> verdict_table() { return kTable; }

const VerdictFacts& facts_of(Verdict v) { return kTable[static_cast<std::size_t>(v)]; }

const char* verdict_name(Verdict v) { return facts_of(v).name; }

bool verdict_fails_gate(Verdict v) { return facts_of(v).fails; }

bool verdict_load_can_cause(Verdict v) { return facts_of(v).load_made; }

bool verdict_about_runner(Verdict v) { return facts_of(v).runner_question; }

bool verdict_change_unjudged(Verdict v) { return facts_of(v).change_unjudged; }

const char* style_name(VerdictStyle s) {
  switch (s) {
    case VerdictStyle::fail: return "fail";
    case VerdictStyle::warn: return "warn";
    case VerdictStyle::pass: return "pass";
    case VerdictStyle::info: return "info";
    case VerdictStyle::skip: return "skip";
  }
  return "?";
}

}  // namespace fabricgate::verdict
