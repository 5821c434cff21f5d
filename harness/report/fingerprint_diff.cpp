#include "harness/report/fingerprint_diff.hpp"

#include <algorithm>
#include <map>

namespace fabricgate::report {

namespace {

using nlohmann::json;

void flatten(const json& j, const std::string& prefix, std::map<std::string, std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "/" + k, out);
  } else if (j.is_string()) {
    out[prefix] = j.get<std::string>();
  } else if (!j.is_null()) {
    out[prefix] = j.dump();  // numbers, booleans, arrays (GPU and NIC lists) compare as text
  }
}

bool judgement_fact(const std::string& path) {
  return path == "outcome" || path == "node_findings" || path.rfind("node_findings/", 0) == 0;
}

}  // namespace

std::vector<FactChange> fingerprint_diff(const json& before, const json& after) {
  if (!before.is_object() || !after.is_object() || before.empty() || after.empty()) return {};
  std::map<std::string, std::string> a;
  std::map<std::string, std::string> b;
  flatten(before, "", a);
  flatten(after, "", b);
  // The gate's own judgement of the run, kept beside its facts (store/stored_run.cpp): not a
  // change of the setup.
  std::erase_if(a, [](const auto& kv) { return judgement_fact(kv.first); });
  std::erase_if(b, [](const auto& kv) { return judgement_fact(kv.first); });
  std::vector<FactChange> out;
  for (const auto& [k, v] : a) {
    const auto it = b.find(k);
    if (it == b.end()) {
      out.push_back({k, v, ""});
    } else if (it->second != v) {
      out.push_back({k, v, it->second});
    }
  }
  for (const auto& [k, v] : b) {
    if (a.count(k) == 0) out.push_back({k, "", v});
  }
  std::sort(out.begin(), out.end(),
            [](const FactChange& x, const FactChange& y) { return x.what < y.what; });
  return out;
}

std::string render_fact_changes(const std::vector<FactChange>& changes) {
  std::string out;
  for (const FactChange& c : changes) {
    out += (out.empty() ? "" : "; ") + c.what + " " + (c.before.empty() ? "(unset)" : c.before) +
           " -> " + (c.after.empty() ? "(unset)" : c.after);
  }
  return out;
}

}  // namespace fabricgate::report
