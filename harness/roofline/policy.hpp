#pragma once
// Roofline floors as data (docs/ROOFLINE.md): policies/roofline.json, schema fabricgate.roofline/1,
// a floor per tier, direction and size range (a fraction of the tier's ceiling, each with the
// public source of the achievable fraction it was set below), and the dip check's threshold.
// A platform overrides it with policies/roofline/<platform>.json (same schema): each tier the
// override names replaces all of that tier's rules; a "dip" section there replaces the dip check's.
//
// Loading is strict: an unknown field, a floor outside (0, 1], a rule without a source, a size
// range that is empty or overlaps another of its tier and direction, is an InputError naming the
// file and field (exit 2).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fabricgate::roofline {

inline constexpr const char* kRooflineSchema = "fabricgate.roofline/1";

enum class Direction { unidirectional, bidirectional };
const char* direction_name(Direction d);

// Tiers the ceilings are computed for (ceiling.hpp). Keeping them a closed list lets the loader
// refuse a misspelt tier instead of silently never applying it.
const std::vector<std::string>& known_tiers();

struct FloorRule {
  std::string tier;  // "pcie-host-copy", "nvlink-collective", ...
  Direction direction = Direction::unidirectional;
  std::uint64_t min_bytes = 0;
  std::optional<std::uint64_t> max_bytes;  // inclusive; absent: no upper end
  double floor = 0;                        // fraction of the ceiling, (0, 1]
  std::optional<double> achievable;        // the published fraction the floor sits below
  std::string source;                      // where `achievable` comes from
  std::string origin;                      // file#/floors/i, for messages
  bool covers(std::uint64_t bytes) const {
    return bytes >= min_bytes && (!max_bytes || bytes <= *max_bytes);
  }
};

struct DipPolicy {
  // A size whose bandwidth is below the previous (smaller) size's by more than `threshold` plus
  // `noise_cv_multiple` x the larger of the two launches' robust CVs is a DIP.
  double threshold = 0.05;
  double noise_cv_multiple = 3;
  std::uint64_t min_bytes = 64ull << 20;  // the bandwidth regime starts here (P15)
  std::string source;
};

struct RooflinePolicy {
  std::string version;
  std::vector<FloorRule> floors;
  DipPolicy dip;
  std::vector<std::string> sources;  // the files it was read from, base first

  // The rule for a tier, direction and size; nullptr when the policy sets no floor there.
  const FloorRule* floor_for(const std::string& tier, Direction d, std::uint64_t bytes) const;
};

RooflinePolicy parse_roofline_policy(const nlohmann::json& doc, const std::string& origin);
RooflinePolicy load_roofline_policy(const std::filesystem::path& path);
// `base` with the override's tiers and dip section replacing its own.
RooflinePolicy with_override(RooflinePolicy base, const RooflinePolicy& override_policy);

// The first <dir>/roofline.json among `dirs`, with <dir>/roofline/<platform>.json over it when it
// exists; nullopt when no directory holds a roofline.json.
std::optional<RooflinePolicy> find_roofline_policy(const std::string& platform,
                                                   const std::vector<std::filesystem::path>& dirs);

}  // namespace fabricgate::roofline
