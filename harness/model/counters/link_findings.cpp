#include "harness/model/counters/link_findings.hpp"

#include <array>

#include <fmt/format.h>

namespace fabricgate::counters {

namespace {

constexpr std::array kFatalCounters = {"link_downed", "excessive_buffer_overrun_errors",
                                       "local_link_integrity_errors", "rnr_nak_retry_err"};
// Warnings without a rate: a remote or the fabric stopped answering for a while.
constexpr std::array kDegradationCounters = {"local_ack_timeout_err", "retrans_timeout_events",
                                             "unresponsive_remote_events",
                                             "impaired_remote_conn_events"};
constexpr double kActiveStateCode = 4;  // sysfs "4: ACTIVE"

std::string where(const DeviceCounters& d) { return d.device + " port " + std::to_string(d.port); }

std::string with_note(const CounterDelta& c) {
  return c.note.empty() ? std::string() : " (" + c.note + ")";
}

void rate_rules(const DeviceCounters& d, double wall_s, std::vector<LinkFinding>& out) {
  if (wall_s <= 0) return;
  if (const CounterDelta* c = d.counter("symbol_error"); c && c->delta > 0) {
    const double per_hour = static_cast<double>(c->delta) * 3600 / wall_s;
    const double per_second = static_cast<double>(c->delta) / wall_s;
    if (per_hour > kSymbolErrorsPerHourLimit) {
      std::string text = fmt::format(
          "{}: symbol_error +{} in {:.1f} s = {:.0f}/hour, over {:.0f}/hour (bit error rate "
          "10^-12 limit){}",
          where(d), c->delta, wall_s, per_hour, kSymbolErrorsPerHourLimit, with_note(*c));
      if (per_second > kSymbolErrorsPerSecondDegraded)
        text += fmt::format("; {:.1f}/s is also over the {:.0f}/s degradation rate", per_second,
                            kSymbolErrorsPerSecondDegraded);
      out.push_back({true, d.device, d.port, "symbol_error", text});
    }
  }
  if (const CounterDelta* c = d.counter("link_error_recovery"); c && c->delta > 0) {
    const double per_minute = static_cast<double>(c->delta) * 60 / wall_s;
    if (per_minute > kLinkRecoveriesPerMinuteDegraded)
      out.push_back({false, d.device, d.port, "link_error_recovery",
                     fmt::format("{}: link_error_recovery +{} in {:.1f} s = {:.1f}/min, over "
                                 "{:.0f}/min (link retraining){}",
                                 where(d), c->delta, wall_s, per_minute,
                                 kLinkRecoveriesPerMinuteDegraded, with_note(*c))});
  }
}

void port_rules(const DeviceCounters& d, double wall_s, std::vector<LinkFinding>& out) {
  if (d.vanished) {
    out.push_back({true, d.device, d.port, "device",
                   where(d) + ": the device vanished during the launch (reset or removed)"});
    return;
  }
  for (const char* name : kFatalCounters) {
    if (const CounterDelta* c = d.counter(name); c && c->delta > 0)
      out.push_back(
          {true, d.device, d.port, name,
           fmt::format("{}: {} +{} during the launch{}", where(d), name, c->delta, with_note(*c))});
  }
  if (const Gauge* g = d.gauge("state_code");
      g && g->start && g->end && *g->start == kActiveStateCode && *g->end != kActiveStateCode)
    out.push_back({true, d.device, d.port, "state",
                   fmt::format("{}: port state went from ACTIVE ({}) to {} during the launch",
                               where(d), *g->start, *g->end)});
  if (const Gauge* g = d.gauge("rate_Gbps"); g && g->start && g->end && *g->end < *g->start)
    out.push_back({false, d.device, d.port, "rate",
                   fmt::format("{}: link rate fell from {} to {} Gb/s during the launch", where(d),
                               *g->start, *g->end)});
  rate_rules(d, wall_s, out);
  for (const char* name : kDegradationCounters) {
    if (const CounterDelta* c = d.counter(name); c && c->delta > 0)
      out.push_back(
          {false, d.device, d.port, name,
           fmt::format("{}: {} +{} during the launch{}", where(d), name, c->delta, with_note(*c))});
  }
}

struct ReasonName {
  const char* event;
  const char* text;
};
// Clock-event reasons that slow a measurement (nvmlClocksEventReason*), in report order.
constexpr std::array<ReasonName, 5> kSlowingReasons = {{
    {"hw_slowdown", "HW slowdown"},
    {"hw_thermal_slowdown", "HW thermal slowdown"},
    {"hw_power_brake_slowdown", "HW power brake"},
    {"sw_thermal_slowdown", "SW thermal slowdown"},
    {"sw_power_cap", "SW power cap"},
}};
// Violation-time counters (nvmlDeviceGetViolationStatus, nanoseconds).
constexpr std::array<ReasonName, 4> kViolationTimes = {{
    {"power_violation_ns", "power-capped"},
    {"thermal_violation_ns", "thermal-limited"},
    {"reliability_violation_ns", "reliability-limited"},
    {"board_limit_violation_ns", "board-limit-capped"},
}};

}  // namespace

std::vector<LinkFinding> link_findings(const RunnerCounters& counters) {
  std::vector<LinkFinding> out;
  for (const DeviceCounters& d : counters.devices) {
    if (d.kind == "rdma") port_rules(d, counters.wall_s, out);
  }
  return out;
}

std::vector<std::string> throttle_notes(const RunnerCounters& counters) {
  std::vector<std::string> out;
  for (const DeviceCounters& d : counters.devices) {
    if (d.kind != "gpu") continue;
    std::string reasons;
    for (const ReasonName& r : kSlowingReasons) {
      if (d.has_event(r.event)) reasons += (reasons.empty() ? "" : ", ") + std::string(r.text);
    }
    std::string times;
    for (const ReasonName& r : kViolationTimes) {
      const CounterDelta* c = d.counter(r.event);
      if (!c || c->delta == 0) continue;
      times += fmt::format("{}{} {:.1f} s", times.empty() ? "" : ", ", r.text,
                           static_cast<double>(c->delta) / 1e9);
    }
    if (reasons.empty() && times.empty()) continue;
    std::string line = d.device + (d.identity.empty() ? "" : " (" + d.identity + ")") + ": ";
    line += reasons.empty() ? "throttled" : reasons;
    if (!times.empty())
      line += "; " + times +
              (counters.wall_s > 0 ? fmt::format(" of the {:.1f} s launch", counters.wall_s)
                                   : std::string());
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace fabricgate::counters
