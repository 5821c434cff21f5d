#include "harness/roofline/policy.hpp"

#include <algorithm>
#include <set>

#include "core/errors.hpp"
#include "core/json_file.hpp"

namespace fabricgate::roofline {

namespace {

using nlohmann::json;

std::uint64_t bytes_at(const JsonReader& r, const std::string& pointer) {
  const long long v = r.integer_at(pointer);
  if (v < 0) r.fail(pointer, "a byte count >= 0");
  return static_cast<std::uint64_t>(v);
}

double fraction_at(const JsonReader& r, const std::string& pointer) {
  const double v = r.number_at(pointer);
  if (!(v > 0 && v <= 1)) r.fail(pointer, "a fraction of the ceiling in (0, 1]");
  return v;
}

std::string required_text(const JsonReader& r, const std::string& pointer) {
  std::string v = r.string_at(pointer);
  if (v.empty()) r.fail(pointer, "a non-empty string");
  return v;
}

FloorRule parse_rule(const JsonReader& r, const std::string& p) {
  r.only_fields(p,
                {"tier", "direction", "min_bytes", "max_bytes", "floor", "achievable", "source"});
  FloorRule rule;
  rule.tier = r.string_at(p + "/tier");
  const auto& tiers = known_tiers();
  if (std::find(tiers.begin(), tiers.end(), rule.tier) == tiers.end()) {
    std::string list;
    for (const std::string& t : tiers) list += (list.empty() ? "" : ", ") + t;
    r.fail(p + "/tier", "one of " + list);
  }
  const std::string direction = r.string_at(p + "/direction");
  if (direction == "unidirectional") {
    rule.direction = Direction::unidirectional;
  } else if (direction == "bidirectional") {
    rule.direction = Direction::bidirectional;
  } else {
    r.fail(p + "/direction", "\"unidirectional\" or \"bidirectional\"");
  }
  rule.min_bytes = bytes_at(r, p + "/min_bytes");
  if (r.find(p + "/max_bytes")) {
    rule.max_bytes = bytes_at(r, p + "/max_bytes");
    if (*rule.max_bytes < rule.min_bytes) r.fail(p + "/max_bytes", "at least min_bytes");
  }
  rule.floor = fraction_at(r, p + "/floor");
  if (r.find(p + "/achievable")) {
    rule.achievable = r.number_at(p + "/achievable");
    if (!(*rule.achievable > 0 && *rule.achievable <= 1.5))
      r.fail(p + "/achievable", "the published achievable fraction, in (0, 1.5]");
    if (rule.floor > *rule.achievable)
      r.fail(p + "/floor", "a floor at or below \"achievable\" (a healthy run must pass)");
  }
  rule.source = required_text(r, p + "/source");
  rule.origin = r.file() + "#" + p;
  return rule;
}

bool overlap(const FloorRule& a, const FloorRule& b) {
  const std::uint64_t a_end = a.max_bytes.value_or(UINT64_MAX);
  const std::uint64_t b_end = b.max_bytes.value_or(UINT64_MAX);
  return a.min_bytes <= b_end && b.min_bytes <= a_end;
}

DipPolicy parse_dip(const JsonReader& r, const std::string& p) {
  r.only_fields(p, {"threshold", "noise_cv_multiple", "min_bytes", "source"});
  DipPolicy dip;
  dip.threshold = r.number_at(p + "/threshold");
  if (!(dip.threshold > 0 && dip.threshold < 1)) r.fail(p + "/threshold", "a fraction in (0, 1)");
  dip.noise_cv_multiple = r.non_negative_at(p + "/noise_cv_multiple");
  dip.min_bytes = bytes_at(r, p + "/min_bytes");
  dip.source = required_text(r, p + "/source");
  return dip;
}

}  // namespace

const char* direction_name(Direction d) {
  return d == Direction::bidirectional ? "bidirectional" : "unidirectional";
}

const std::vector<std::string>& known_tiers() {
  static const std::vector<std::string> tiers{
      "pcie-host-copy",    "pcie-host-copy-pageable", "nvlink-pair-copy", "pcie-pair-copy",
      "nvlink-collective", "pcie-collective",         "nic-collective",   "nic-rdma"};
  return tiers;
}

const FloorRule* RooflinePolicy::floor_for(const std::string& tier, Direction d,
                                           std::uint64_t bytes) const {
  for (const FloorRule& rule : floors) {
    if (rule.tier == tier && rule.direction == d && rule.covers(bytes)) return &rule;
  }
  return nullptr;
}

RooflinePolicy parse_roofline_policy(const json& doc, const std::string& origin) {
  const JsonReader r(doc, origin);
  r.object_at("");
  r.only_fields("", {"schema", "version", "description", "floors", "dip"});
  if (r.string_at("/schema") != kRooflineSchema)
    r.fail("/schema", std::string("\"") + kRooflineSchema + "\"");
  RooflinePolicy policy;
  policy.version = required_text(r, "/version");
  policy.sources.push_back(origin);
  const json& floors = r.array_at("/floors");
  for (std::size_t i = 0; i < floors.size(); ++i) {
    const std::string p = "/floors/" + std::to_string(i);
    FloorRule rule = parse_rule(r, p);
    for (const FloorRule& other : policy.floors) {
      if (other.tier == rule.tier && other.direction == rule.direction && overlap(other, rule))
        r.fail(p + "/min_bytes", "a size range that does not overlap " + other.origin);
    }
    policy.floors.push_back(std::move(rule));
  }
  if (r.find("/dip")) policy.dip = parse_dip(r, "/dip");
  return policy;
}

RooflinePolicy load_roofline_policy(const std::filesystem::path& path) {
  return parse_roofline_policy(load_json_file(path), path.string());
}

RooflinePolicy with_override(RooflinePolicy base, const RooflinePolicy& o) {
  std::set<std::string> replaced;
  for (const FloorRule& rule : o.floors) replaced.insert(rule.tier);
  base.floors.erase(std::remove_if(base.floors.begin(), base.floors.end(),
                                   [&](const FloorRule& r) { return replaced.count(r.tier) > 0; }),
                    base.floors.end());
  base.floors.insert(base.floors.end(), o.floors.begin(), o.floors.end());
  if (!o.dip.source.empty()) base.dip = o.dip;
  base.version += " + " + o.version;
  base.sources.insert(base.sources.end(), o.sources.begin(), o.sources.end());
  return base;
}

std::optional<RooflinePolicy> find_roofline_policy(const std::string& platform,
                                                   const std::vector<std::filesystem::path>& dirs) {
  std::error_code ec;
  for (const std::filesystem::path& dir : dirs) {
    const auto base = dir / "roofline.json";
    if (!std::filesystem::exists(base, ec)) continue;
    RooflinePolicy policy = load_roofline_policy(base);
    // The platform key passed require_safe_name when the run was loaded: no path climbing.
    const auto platform_file = dir / "roofline" / (platform + ".json");
    if (!platform.empty() && std::filesystem::exists(platform_file, ec))
      policy = with_override(std::move(policy), load_roofline_policy(platform_file));
    return policy;
  }
  return std::nullopt;
}

}  // namespace fabricgate::roofline
