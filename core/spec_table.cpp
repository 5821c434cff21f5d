#include "core/spec_table.hpp"

#include <array>
#include <cmath>

#include <fmt/format.h>

namespace fabricgate {

namespace {

// Published NVLink aggregates per direction for a full complement of links (P17: the vendor's
// aggregate, from which the per-link figure is derived, not the other way round).
struct NvLinkRow {
  int generation;
  int full_links;
  double full_per_direction_GBps;
};
constexpr std::array<NvLinkRow, 5> kNvLink{{
    {1, 4, 80.0},    // P100: 160 GB/s both ways
    {2, 6, 150.0},   // V100: 300 GB/s both ways
    {3, 12, 300.0},  // A100: 600 GB/s both ways
    {4, 18, 450.0},  // H100/H200: 900 GB/s both ways
    {5, 18, 900.0},  // B200: 1.8 TB/s both ways
}};

// Published usable rate per lane per direction (after 8b/10b, 128b/130b or FLIT encoding).
struct PcieRow {
  int generation;
  double gt_per_s;
  double lane_GBps;
};
constexpr std::array<PcieRow, 6> kPcie{{
    {1, 2.5, 0.250},
    {2, 5.0, 0.500},
    {3, 8.0, 0.985},
    {4, 16.0, 1.969},
    {5, 32.0, 3.938},
    {6, 64.0, 7.563},
}};

}  // namespace

std::optional<int> nvlink_generation(int cc_major, int cc_minor) {
  // Only the data-centre parts whose GPU-to-GPU NVLink the table describes.
  if (cc_major == 6 && cc_minor == 0) return 1;
  if (cc_major == 7 && cc_minor == 0) return 2;
  if (cc_major == 8 && cc_minor == 0) return 3;
  if (cc_major == 9 && cc_minor == 0) return 4;
  if (cc_major == 10 && cc_minor == 0) return 5;
  return std::nullopt;
}

std::optional<LinkSpec> nvlink_spec(int generation, int links) {
  if (links <= 0) return std::nullopt;
  for (const auto& row : kNvLink) {
    if (row.generation != generation) continue;
    LinkSpec s;
    s.name = "NVLink" + std::to_string(generation) + "x" + std::to_string(links);
    s.per_direction_GBps = row.full_per_direction_GBps * links / row.full_links;
    return s;
  }
  return std::nullopt;
}

std::optional<int> nvlink_full_links(int generation) {
  for (const auto& row : kNvLink) {
    if (row.generation == generation) return row.full_links;
  }
  return std::nullopt;
}

std::optional<int> pcie_generation(double gt_per_s) {
  for (const auto& row : kPcie) {
    if (std::fabs(row.gt_per_s - gt_per_s) < 0.05) return row.generation;
  }
  return std::nullopt;
}

std::optional<LinkSpec> pcie_spec(int generation, int width) {
  if (width <= 0) return std::nullopt;
  for (const auto& row : kPcie) {
    if (row.generation != generation) continue;
    LinkSpec s;
    s.name = "PCIe Gen" + std::to_string(generation) + " x" + std::to_string(width);
    s.per_direction_GBps = row.lane_GBps * width;
    return s;
  }
  return std::nullopt;
}

double percent_of_spec(double measured_GBps, const LinkSpec& spec, SpecDirection direction) {
  const double ref = spec.GBps(direction);
  return ref > 0 ? 100.0 * measured_GBps / ref : 0.0;
}

std::string percent_of_spec_text(double measured_GBps, const LinkSpec& spec,
                                 SpecDirection direction) {
  return fmt::format("{:.1f} GB/s = {:.1f} % of the {:.1f} GB/s {} {} spec (P07)", measured_GBps,
                     percent_of_spec(measured_GBps, spec, direction), spec.GBps(direction),
                     direction == SpecDirection::bidirectional ? "bidirectional" : "unidirectional",
                     spec.name);
}

}  // namespace fabricgate
