#include "harness/verdict/fingerprint_changes.hpp"

namespace fabricgate::verdict {

FingerprintChanges fingerprint_changes(const FingerprintDetail& before,
                                       const FingerprintDetail& after,
                                       const std::string& before_missing,
                                       const std::string& after_missing) {
  FingerprintChanges out;
  if (before.empty() || after.empty()) {
    out.note = before.empty() ? before_missing : after_missing;
    return out;
  }
  // Both maps are sorted by field: one merge pass gives changed, removed and added fields in order.
  auto a = before.begin();
  auto b = after.begin();
  while (a != before.end() || b != after.end()) {
    if (b == after.end() || (a != before.end() && a->first < b->first)) {
      out.changes.push_back({a->first, a->second, ""});
      ++a;
    } else if (a == before.end() || b->first < a->first) {
      out.changes.push_back({b->first, "", b->second});
      ++b;
    } else {
      if (a->second != b->second) out.changes.push_back({a->first, a->second, b->second});
      ++a;
      ++b;
    }
  }
  return out;
}

nlohmann::json fingerprint_diff_to_json(const std::vector<Change>& changes) {
  nlohmann::json out = nlohmann::json::array();
  for (const Change& c : changes)
    out.push_back({{"field", c.what}, {"before", c.before}, {"after", c.after}});
  return out;
}

}  // namespace fabricgate::verdict
