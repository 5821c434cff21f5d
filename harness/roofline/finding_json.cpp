#include "harness/roofline/finding_json.hpp"

namespace fabricgate::roofline {

nlohmann::json to_json(const RooflineFinding& f) {
  nlohmann::json j{{"status", status_name(f.status)}, {"text", f.text}};
  if (f.ceiling_GBps > 0) {
    j["tier"] = f.tier;
    j["spec"] = f.spec;
    j["direction"] = direction_name(f.direction);
    j["metric"] = f.metric;
    j["ceiling_GBps"] = f.ceiling_GBps;
    j["measured_GBps"] = f.measured_GBps;
    j["percent_of_roofline"] = 100 * f.fraction;
    j["floor"] = f.floor ? nlohmann::json(*f.floor) : nlohmann::json(nullptr);
    j["floor_source"] = f.floor_source;
    j["causes"] = f.causes;
  }
  j["dip"] = f.dip;
  if (f.dip) {
    j["dip_from_bytes"] = f.dip_from_bytes;
    j["dip_text"] = f.dip_text;
  }
  return j;
}

}  // namespace fabricgate::roofline
