#include "core/suite_names.hpp"

#include <algorithm>
#include <vector>

#include "core/nearest_name.hpp"

namespace fabricgate {

namespace {

constexpr std::array<NameField, 6> kCollFields{{
    {"backend", "a collective backend", kCollectiveBackends, false, true, 1},
    {"ops", "a collective op", kCollectiveOps, true, false, kCollectiveOps.size()},
    {"dtypes", "a data type", kDataTypeNames, true, false, 1},
    {"redops", "a reduction", kRedOps, true, false, 1},
    {"placements", "a placement", kPlacements, true, false, 1},
    {"memory", "a buffer memory", kBufferMemory, false, false, 1},
}};
constexpr std::array<NameField, 2> kHostcopyFields{{
    {"backend", "a hostcopy backend", kHostcopyBackends, false, false, 1},
    {"ops", "a host copy op", kHostcopyOps, true, false, 1},
}};
constexpr std::array<NameField, 1> kNodepairsFields{{
    {"backend", "a backend with a pair exchange", kCollectiveBackends, false, false, 1},
}};
constexpr std::array<NameField, 4> kP2pFields{{
    {"ops", "a p2p op", kP2pOps, true, false, 1},
    {"engines", "a copy engine", kCopyEngines, true, false, kCopyEngines.size()},
    {"directions", "a p2p direction", kP2pDirections, true, false, kP2pDirections.size()},
    {"modes", "a p2p mode", kP2pModes, true, false, kP2pModes.size()},
}};
constexpr std::array<NameField, 2> kDevcopyFields{{
    {"directions", "a host-device direction", kHostDirections, true, false, kHostDirections.size()},
    {"memory", "a host memory kind", kHostMemory, true, false, 1},
}};
constexpr std::array<NameField, 4> kRdmaFields{{
    {"backend", "an RDMA backend", kRdmaBackends, false, true, 1},
    {"ops", "an RDMA op", kRdmaOps, true, false, kRdmaOps.size()},
    {"memory", "a buffer memory", kBufferMemory, false, false, 1},
    {"transport", "a verbs transport", kVerbsTransports, false, false, 1},
}};

std::string found_text(std::string_view name, std::span<const std::string_view> names) {
  return ", found \"" + std::string(name) + "\"" + did_you_mean(name, names);
}

void check_name(const JsonReader& r, const std::string& p, std::string_view what,
                std::span<const std::string_view> names) {
  const std::string name = r.string_at(p);
  if (!is_one_of(name, names))
    r.fail(p, std::string(what) + " (" + names_text(names) + ")" + found_text(name, names));
}

}  // namespace

bool is_one_of(std::string_view name, std::span<const std::string_view> names) {
  for (const std::string_view n : names) {
    if (n == name) return true;
  }
  return false;
}

std::span<const NameField> family_name_fields(std::string_view family) {
  if (family == "coll") return kCollFields;
  if (family == "hostcopy") return kHostcopyFields;
  if (family == "nodepairs") return kNodepairsFields;
  if (family == "p2p") return kP2pFields;
  if (family == "devcopy") return kDevcopyFields;
  if (family == "rdma") return kRdmaFields;
  return {};
}

namespace {
std::vector<std::string>& extra_families() {
  static std::vector<std::string> names;
  return names;
}
}  // namespace

void allow_extra_suite_family(std::string_view family) {
  if (!is_one_of(family, kSuiteFamilies)) extra_families().emplace_back(family);
}

void check_entry_names(const JsonReader& r, const std::string& pointer) {
  const std::vector<std::string>& extra = extra_families();
  const bool registered_extra =
      r.find(pointer + "/family") && r.find(pointer + "/family")->is_string() &&
      std::find(extra.begin(), extra.end(), r.string_at(pointer + "/family")) != extra.end();
  if (!registered_extra) check_name(r, pointer + "/family", "a benchmark family", kSuiteFamilies);
  const std::string family = r.string_at(pointer + "/family");
  for (const NameField& f : family_name_fields(family)) {
    const std::string p = pointer + "/" + std::string(f.field);
    if (!r.find(p)) {
      if (f.required)
        r.fail(p, std::string(f.what) + " (" + names_text(f.names) + ") for family \"" + family +
                      "\"");
      continue;
    }
    if (!f.is_list) {
      check_name(r, p, f.what, f.names);
      continue;
    }
    const json& list = r.array_at(p);
    if (list.empty()) r.fail(p, "a non-empty array of names (" + names_text(f.names) + ")");
    for (std::size_t i = 0; i < list.size(); ++i)
      check_name(r, p + "/" + std::to_string(i), f.what, f.names);
  }
}

}  // namespace fabricgate
