// Node actions in the console and Markdown reports: shown under the cluster findings, bounded
// (1,024 blamed nodes must not flood a CI log or pass GitHub's comment size), pointing at
// `fabricgate nodes` for the rest.
#include <gtest/gtest.h>

#include "harness/report/render.hpp"

namespace fabricgate::report {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

verdict::Comparison with_actions(std::size_t n) {
  verdict::Comparison c;
  c.run_id = "r1";
  c.platform = "h200-sxm-x8";
  c.node_layout = "1024 nodes x 8 ranks";
  c.cluster_findings.push_back(
      {"SUSPECT-NODE", true, "gpu-0", "", "node gpu-0: its pairs run below 0.75x", ""});
  for (std::size_t i = 0; i < n; ++i) {
    c.node_actions.push_back("slurm: scontrol update NodeName=gpu-" + std::to_string(i) +
                             " State=DRAIN Reason=\"fabricgate: SUSPECT-NODE (run r1)\"");
  }
  c.exit_code = ExitCode::gate_failure;
  return c;
}

TEST(NodeActionsReport, ConsoleListsThemUnderTheFindingsAndStopsAt20) {
  const std::string few = render_console(with_actions(2), RenderOptions{});
  EXPECT_NE(few.find("CLUSTER FAIL SUSPECT-NODE: node gpu-0: its pairs run below 0.75x\n"
                     "node actions (fabricgate nodes RUN --drain runs the Slurm lines):\n"
                     "  slurm: scontrol update NodeName=gpu-0 State=DRAIN Reason=\"fabricgate: "
                     "SUSPECT-NODE (run r1)\"\n"
                     "  slurm: scontrol update NodeName=gpu-1 "),
            std::string::npos)
      << few;
  EXPECT_EQ(few.find("more lines"), std::string::npos);
  const std::string many = render_console(with_actions(25), RenderOptions{});
  EXPECT_NE(many.find("NodeName=gpu-19 "), std::string::npos);
  EXPECT_EQ(many.find("NodeName=gpu-20 "), std::string::npos);
  EXPECT_NE(many.find("  (5 more lines: fabricgate nodes RUN)\n"), std::string::npos) << many;
}

TEST(NodeActionsReport, MarkdownFencesThemAndStopsAt200) {
  const std::string md = render_markdown(with_actions(1), RenderOptions{});
  EXPECT_NE(md.find("Node actions (`fabricgate nodes RUN --drain` runs the Slurm lines):\n\n```sh\n"
                    "slurm: scontrol update NodeName=gpu-0 State=DRAIN Reason=\"fabricgate: "
                    "SUSPECT-NODE (run r1)\"\n```\n"),
            std::string::npos)
      << md;
  const std::string many = render_markdown(with_actions(230), RenderOptions{});
  EXPECT_EQ(many.find("NodeName=gpu-200 "), std::string::npos);
  EXPECT_NE(many.find("# 30 more lines: fabricgate nodes RUN\n```"), std::string::npos);
  EXPECT_EQ(render_markdown(with_actions(0), RenderOptions{}).find("Node actions"),
            std::string::npos);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report
