#include "core/choice_record.hpp"

#include <map>
#include <string>

namespace fabricgate::capture {
namespace {

std::map<std::string, long long> typed_counts(const CountMap& counts) {
  std::map<std::string, long long> out;
  for (const auto& [key, n] : counts) out[key] = static_cast<long long>(n);
  return out;
}

}  // namespace

Choice to_choice(const ChoiceSummary& c) {
  Choice out;
  out.events = static_cast<long long>(c.events);
  out.algo = typed_counts(c.algo);
  out.proto = typed_counts(c.proto);
  out.channels = typed_counts(c.channels);
  out.warps = typed_counts(c.warps);
  out.funcs = typed_counts(c.funcs);
  return out;
}

nlohmann::json choice_to_json(const ChoiceSummary& c) { return to_json(to_choice(c)); }

}  // namespace fabricgate::capture
