#include "harness/gate/roofline_verdicts.hpp"

#include <unordered_map>

#include "harness/roofline/judge.hpp"

namespace fabricgate::gate {

namespace {

// A roofline failure replaces verdicts that would let the key pass; a skipped key was not
// measured, and a failing one already says something more specific.
bool may_replace(verdict::Verdict v) {
  return v != verdict::Verdict::skipped && !verdict::verdict_fails_gate(v);
}

void apply(roofline::RooflineFinding f, verdict::KeyComparison& k, bool floor_fails) {
  if (f.status == roofline::Status::below_floor) {
    if (floor_fails && may_replace(k.verdict)) {
      k.verdict = verdict::Verdict::below_roofline;
      k.reason = f.text;
    } else {
      k.notes.push_back({"roofline", "warn", f.text});
    }
  } else if (f.status == roofline::Status::not_physical) {
    k.notes.push_back({"P10", "note", f.text});
  }
  if (f.dip) {
    if (may_replace(k.verdict)) {
      k.verdict = verdict::Verdict::dip;
      k.reason = f.dip_text;
    } else {
      k.notes.push_back({"dip", "warn", f.dip_text});
    }
  }
  k.roofline = std::move(f);
}

}  // namespace

void add_roofline_verdicts(const RunRecord& run, const roofline::RooflinePolicy& policy,
                           verdict::Comparison& c, bool floor_fails) {
  std::unordered_map<std::string, verdict::KeyComparison*> keys;
  for (verdict::KeyComparison& k : c.keys) keys.emplace(k.key, &k);
  for (roofline::RooflineFinding& f : roofline::judge_keys(run, policy)) {
    const auto it = keys.find(f.key);
    if (it != keys.end()) apply(std::move(f), *it->second, floor_fails);
  }
  c.roofline_policy = policy.sources.empty() ? "" : policy.sources.front();
  for (std::size_t i = 1; i < policy.sources.size(); ++i)
    c.roofline_policy += " + " + policy.sources[i];
  c.roofline_policy += " (version " + policy.version + ")";
}

}  // namespace fabricgate::gate
