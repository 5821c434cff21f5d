// The spec table and % of spec (P07 direction, P16 PCIe rates, P17 published aggregates).
#include <gtest/gtest.h>

#include "core/spec_table.hpp"

namespace fb = fabricgate;

TEST(P2pSpecTable, NvLink4FullComplementIsThePublishedAggregate) {
  const auto s = fb::nvlink_spec(4, 18);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "NVLink4x18");
  EXPECT_DOUBLE_EQ(s->GBps(fb::SpecDirection::unidirectional), 450.0);
  EXPECT_DOUBLE_EQ(s->GBps(fb::SpecDirection::bidirectional), 900.0);
}

TEST(P2pSpecTable, NvLink3TwelveLinks) {
  const auto s = fb::nvlink_spec(3, 12);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->per_direction_GBps, 300.0);
  EXPECT_DOUBLE_EQ(s->GBps(fb::SpecDirection::bidirectional), 600.0);
}

TEST(P2pSpecTable, P17FewerActiveLinksScaleThePublishedAggregateNotTheEncodedLinkRate) {
  // 17 of 18 NVLink4 links: 425 GB/s. nvidia-smi's 26.562 GB/s per link would give 451.6 (wrong).
  const auto s = fb::nvlink_spec(4, 17);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->per_direction_GBps, 425.0);
  EXPECT_LT(s->per_direction_GBps, 26.562 * 17);
}

TEST(P2pSpecTable, UnknownNvLinkInputs) {
  EXPECT_FALSE(fb::nvlink_spec(9, 18));
  EXPECT_FALSE(fb::nvlink_spec(4, 0));
  EXPECT_FALSE(fb::nvlink_spec(4, -1));
}

TEST(P2pSpecTable, NvLinkGenerationFromArchitecture) {
  EXPECT_EQ(fb::nvlink_generation(9, 0), 4);   // H100 / H200
  EXPECT_EQ(fb::nvlink_generation(8, 0), 3);   // A100
  EXPECT_EQ(fb::nvlink_generation(10, 0), 5);  // B200
  EXPECT_FALSE(fb::nvlink_generation(8, 9));   // L40: no GPU-to-GPU NVLink
  EXPECT_FALSE(fb::nvlink_generation(12, 0));
}

TEST(P2pSpecTable, P16PcieRatesFromPublishedPerLaneFigures) {
  EXPECT_NEAR(fb::pcie_spec(5, 16)->per_direction_GBps, 63.0, 0.01);
  EXPECT_NEAR(fb::pcie_spec(4, 16)->per_direction_GBps, 31.5, 0.01);
  EXPECT_NEAR(fb::pcie_spec(3, 16)->per_direction_GBps, 15.76, 0.01);
  EXPECT_NEAR(fb::pcie_spec(5, 8)->per_direction_GBps, 31.5, 0.01);
  EXPECT_NEAR(fb::pcie_spec(5, 16)->GBps(fb::SpecDirection::bidirectional), 126.0, 0.02);
  EXPECT_EQ(fb::pcie_spec(5, 16)->name, "PCIe Gen5 x16");
  EXPECT_FALSE(fb::pcie_spec(7, 16));
  EXPECT_FALSE(fb::pcie_spec(5, 0));
}

TEST(P2pSpecTable, PcieGenerationFromSysfsSpeed) {
  EXPECT_EQ(fb::pcie_generation(2.5), 1);
  EXPECT_EQ(fb::pcie_generation(8.0), 3);
  EXPECT_EQ(fb::pcie_generation(16.0), 4);
  EXPECT_EQ(fb::pcie_generation(32.0), 5);
  EXPECT_FALSE(fb::pcie_generation(20.0));
}

TEST(P2pSpecTable, P07PercentAgainstTheMatchingDirection) {
  const auto s = *fb::nvlink_spec(4, 18);
  EXPECT_NEAR(fb::percent_of_spec(412.0, s, fb::SpecDirection::unidirectional), 91.56, 0.01);
  // 780 GB/s both ways is 86.7 % of 900, not 173 % of 450 ...
  EXPECT_NEAR(fb::percent_of_spec(780.0, s, fb::SpecDirection::bidirectional), 86.67, 0.01);
  // ... and 360 GB/s unidirectional is 80 % of 450, not 40 % of the duplex 900 (P07's example).
  EXPECT_NEAR(fb::percent_of_spec(360.0, s, fb::SpecDirection::unidirectional), 80.0, 1e-9);
}

TEST(P2pSpecTable, PercentTextNamesFigureDirectionAndSpec) {
  const auto s = *fb::nvlink_spec(4, 18);
  EXPECT_EQ(fb::percent_of_spec_text(412.0, s, fb::SpecDirection::unidirectional),
            "412.0 GB/s = 91.6 % of the 450.0 GB/s unidirectional NVLink4x18 spec (P07)");
  EXPECT_EQ(fb::percent_of_spec_text(780.0, s, fb::SpecDirection::bidirectional),
            "780.0 GB/s = 86.7 % of the 900.0 GB/s bidirectional NVLink4x18 spec (P07)");
}
