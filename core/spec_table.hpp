#pragma once
// Published link specifications, as pure functions, so "% of spec" is computed the same way
// everywhere and tested on CPU. Two rules from docs/PITFALLS.md (#p07, #p17):
//   P07: every spec states its direction; % of spec is taken against the matching one
//        (a bidirectional measurement against the bidirectional figure, never mixed);
//   P17: NVLink figures are the published aggregate (NVLink4: 450 GB/s per direction over 18
//        links), never nvidia-smi's per-link rate summed (26.56 GB/s x 18 overshoots by the
//        0.9412 encoding).
// PCIe figures are the published usable per-lane rate per direction (after line encoding) times the
// width: Gen5 x16 = 3.938 x 16 = 63.0 GB/s (P16). Adding a generation is one row in spec_table.cpp.
#include <optional>
#include <string>

namespace fabricgate {

enum class SpecDirection { unidirectional, bidirectional };

// One direction-explicit figure: `name` says what it is, e.g. "NVLink4x18", "PCIe Gen5 x16".
struct LinkSpec {
  std::string name;
  double per_direction_GBps = 0;  // decimal GB/s (P08), one direction
  double GBps(SpecDirection d) const {
    return d == SpecDirection::bidirectional ? 2 * per_direction_GBps : per_direction_GBps;
  }
};

// NVLink generation of a GPU architecture from its compute capability (6.0 → 1 … 10.x → 5);
// nullopt for parts without NVLink between GPUs of the same board family (or unknown).
std::optional<int> nvlink_generation(int cc_major, int cc_minor);
// Published aggregate scaled to `links` active links. nullopt for an unknown generation or links <=
// 0.
std::optional<LinkSpec> nvlink_spec(int generation, int links);

// Links of a full complement for an NVLink generation (NVLink4: 18); nullopt when unknown. A GPU
// with fewer active links than this has lost some, or is a part built with fewer.
std::optional<int> nvlink_full_links(int generation);

// PCIe generation from a sysfs link speed in GT/s (2.5 → 1, 5 → 2, 8 → 3, 16 → 4, 32 → 5, 64 → 6).
std::optional<int> pcie_generation(double gt_per_s);
std::optional<LinkSpec> pcie_spec(int generation, int width);

// "412 GB/s = 91.6 % of the 450 GB/s unidirectional NVLink4x18 spec (P07)"
std::string percent_of_spec_text(double measured_GBps, const LinkSpec& spec,
                                 SpecDirection direction);
double percent_of_spec(double measured_GBps, const LinkSpec& spec, SpecDirection direction);

}  // namespace fabricgate
