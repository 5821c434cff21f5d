#include "harness/gate/gross_change.hpp"

#include "core/errors.hpp"
#include "core/json_file.hpp"

namespace fabricgate::gate {

std::optional<double> GrossChangeLimits::limit_for(const std::string& key) const {
  const auto it = keys.find(key);
  if (it == keys.end()) return std::nullopt;
  return it->second.slowest_ratio * factor;
}

GrossChangeLimits parse_gross_change_limits(const nlohmann::json& doc, const std::string& origin) {
  const JsonReader r(doc, origin);
  r.object_at("");
  r.only_fields("", {"schema", "platform", "factor", "derived_from", "keys"});
  if (r.string_at("/schema") != kGrossChangeSchema)
    r.fail("/schema", std::string("\"") + kGrossChangeSchema + "\"");
  GrossChangeLimits out;
  out.source = origin;
  out.platform = r.string_at("/platform");
  require_safe_name(out.platform, origin, "/platform");
  out.factor = r.number_at("/factor");
  // 1 or more would blame a runner that is merely as slow as the fleet's slowest.
  if (!(out.factor > 0 && out.factor < 1)) r.fail("/factor", "a margin in (0, 1)");
  out.derived_from = r.string_at("/derived_from");
  if (out.derived_from.empty()) r.fail("/derived_from", "the sessions the limits come from");
  for (const auto& [key, value] : r.object_at("/keys").items()) {
    const std::string p = "/keys/" + json_pointer_escape(key);
    if (key.empty()) r.fail(p, "a benchmark key");
    r.only_fields(p, {"slowest_ratio", "launches", "hosts"});
    GrossChangeKey k;
    k.slowest_ratio = r.number_at(p + "/slowest_ratio");
    if (!(k.slowest_ratio > 0 && k.slowest_ratio <= 1))
      r.fail(p + "/slowest_ratio", "a ratio to the fleet centre in (0, 1]");
    k.launches = r.integer_at(p + "/launches");
    if (k.launches < 1) r.fail(p + "/launches", "at least 1 launch");
    k.hosts = r.integer_at(p + "/hosts");
    if (k.hosts < 1 || k.hosts > k.launches) r.fail(p + "/hosts", "between 1 and launches");
    out.keys.emplace(key, k);
  }
  if (out.keys.empty()) r.fail("/keys", "at least one key");
  return out;
}

GrossChangeLimits load_gross_change_limits(const std::filesystem::path& path) {
  return parse_gross_change_limits(load_json_file(path, kGrossChangeSchema), path.string());
}

std::optional<GrossChangeLimits> find_gross_change_limits(
    const std::filesystem::path& baseline_file, const std::string& platform) {
  if (baseline_file.empty()) return std::nullopt;
  // A per-platform baseline (<dir>/<platform>.json) shares its directory with other platforms:
  // its limits live in the platform's own directory, as a per-suite baseline's do.
  const std::filesystem::path dir = baseline_file.stem() == platform
                                        ? baseline_file.parent_path() / platform
                                        : baseline_file.parent_path();
  const std::filesystem::path file = dir / "gross-change.json";
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return std::nullopt;
  GrossChangeLimits limits = load_gross_change_limits(file);
  if (limits.platform != platform) return std::nullopt;
  return limits;
}

}  // namespace fabricgate::gate
