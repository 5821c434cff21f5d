// JUnit XML: one testcase per key so CI systems list and trend them; failing verdicts carry the
// reason as the failure message; keys that were not gated (SKIPPED, NEW, NOISY, UNSTABLE, every
// key of a run without a baseline) are <skipped/> with the reason, so CI never counts them as
// passed tests; AMBIGUOUS passes with a note. In a "runner busy, not judged" run the load-made
// failures are skipped with that reason.
#include "core/text_escape.hpp"
#include "harness/cluster/node_actions.hpp"
#include "harness/report/key_figures.hpp"
#include "harness/report/render.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::report {

std::string render_junit(const verdict::Comparison& c) {
  std::size_t failures = 0;
  std::size_t errors = 0;
  std::size_t skipped = 0;
  std::string cases;
  for (const verdict::KeyComparison& k : c.keys) {
    const std::string classname =
        "fabricgate." + c.platform + "." + k.family + "." + k.backend + "." + k.op;
    cases += "    <testcase classname=\"" + xml_escape(classname) + "\" name=\"" +
             xml_escape(k.key) + "\">\n";
    std::string details = k.reason;
    const std::string changes = describe_changes(k.changes);
    if (!changes.empty()) details += "\n" + changes;
    for (const std::string& n : note_lines(k)) details += "\n" + n;
    if (k.missing_because_incomplete) {
      ++errors;
      cases += "      <error type=\"MISSING\" message=\"" + xml_escape(k.reason) + "\"/>\n";
    } else if (c.runner_busy && verdict::verdict_load_can_cause(k.verdict)) {
      // The run was not judged (exit 3): a CI system must not count it as a failed test either.
      ++skipped;
      cases += "      <skipped message=\"" +
               xml_escape(std::string(verdict::verdict_name(k.verdict)) +
                          ": not judged, the runner was busy: " + k.reason) +
               "\"/>\n";
    } else if (c.runner_degraded && verdict::verdict_fails_gate(k.verdict)) {
      // Exit 3: the runner, not the change, is slower; an infrastructure error, not a failed test.
      ++errors;
      cases += "      <error type=\"RUNNER-DEGRADED\" message=\"" +
               xml_escape(std::string(verdict::verdict_name(k.verdict)) +
                          ": slower than the host's own level, software unchanged: " + k.reason) +
               "\">" + xml_escape(details) + "</error>\n";
    } else if (!c.below_roofline_unjudged.empty() && k.roofline &&
               k.roofline->status == roofline::Status::below_floor) {
      // Exit 3 with no baseline: the runner is under its hardware's floor; an error, not a test
      // the change failed.
      ++errors;
      cases +=
          "      <error type=\"BELOW-ROOFLINE\" message=\"" +
          xml_escape("not judged, the runner is under its roofline floor: " + k.roofline->text) +
          "\">" + xml_escape(details) + "</error>\n";
    } else if (verdict::verdict_fails_gate(k.verdict)) {
      ++failures;
      cases += "      <failure type=\"" + std::string(verdict::verdict_name(k.verdict)) +
               "\" message=\"" + xml_escape(k.reason) + "\">" + xml_escape(details) +
               "</failure>\n";
    } else if (!verdict::facts_of(k.verdict).gated) {
      ++skipped;
      cases +=
          "      <skipped message=\"" +
          xml_escape(std::string(verdict::verdict_name(k.verdict)) + ": not gated: " + k.reason) +
          "\"/>\n";
    } else {
      cases += "      <system-out>" +
               xml_escape(std::string(verdict::verdict_name(k.verdict)) + ": " + details) +
               "</system-out>\n";
    }
    cases += "    </testcase>\n";
  }
  // Cluster findings that fail the gate (a node that differs, a suspect node) are failing cases
  // of their own, so CI lists the node by name.
  std::size_t finding_cases = 0;
  for (const verdict::ClusterFinding& f : c.cluster_findings) {
    if (!f.fails_gate) continue;
    ++finding_cases;
    ++failures;
    cases += "    <testcase classname=\"" + xml_escape("fabricgate." + c.platform + ".cluster") +
             "\" name=\"" +
             xml_escape(f.id + "/" + f.node + (f.field.empty() ? "" : "/" + f.field)) +
             "\">\n      <failure type=\"" + xml_escape(f.id) + "\" message=\"" +
             xml_escape(f.text + (f.node.empty() ? std::string()
                                                 : std::string(" (severity ") +
                                                       cluster::severity_name(
                                                           cluster::finding_severity(f).severity) +
                                                       ")")) +
             "\"/>\n    </testcase>\n";
  }
  const std::string counts = " tests=\"" + std::to_string(c.keys.size() + finding_cases) +
                             "\" failures=\"" + std::to_string(failures) + "\" errors=\"" +
                             std::to_string(errors) + "\" skipped=\"" + std::to_string(skipped) +
                             "\"";
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"fabricgate\"" + counts +
         ">\n  <testsuite name=\"" + xml_escape("fabricgate." + c.platform + "." + c.run_id) +
         "\"" + counts + ">\n    <properties>\n      <property name=\"gate\" value=\"" +
         verdict::gate_mode_name(c.gate) + "\"/>\n      <property name=\"baseline\" value=\"" +
         xml_escape(c.baseline_source) + "\"/>\n      <property name=\"change\" value=\"" +
         xml_escape(c.change_line()) + "\"/>\n      <property name=\"runner\" value=\"" +
         xml_escape(c.runner_line()) + "\"/>\n    </properties>\n" + cases +
         "  </testsuite>\n</testsuites>\n";
}

}  // namespace fabricgate::report
