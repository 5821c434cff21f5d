#include "harness/model/counters/counter_delta.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace fabricgate::counters {

namespace {

std::uint64_t limit_of(unsigned bits) {
  return bits >= 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1;
}

auto key_of(const DeviceSample& s) { return std::tie(s.kind, s.device, s.port); }

void add_event(std::vector<std::string>& events, const std::string& name) {
  if (std::find(events.begin(), events.end(), name) == events.end()) events.push_back(name);
}

DeviceCounters device_only(const DeviceSample& s) {
  DeviceCounters d;
  d.kind = s.kind;
  d.device = s.device;
  d.port = s.port;
  d.identity = s.identity;
  d.unread = s.unread;
  for (const std::string& e : s.events) add_event(d.events, e);
  return d;
}

DeviceCounters pair_delta(const DeviceSample& a, const DeviceSample& b) {
  DeviceCounters d = device_only(a);
  if (d.identity.empty()) d.identity = b.identity;
  for (const Unread& u : b.unread) {
    const bool known = std::any_of(d.unread.begin(), d.unread.end(),
                                   [&](const Unread& x) { return x.what == u.what; });
    if (!known) d.unread.push_back(u);
  }
  for (const std::string& e : b.events) add_event(d.events, e);
  for (const auto& [name, start] : a.counters) {
    const auto end = b.counters.find(name);
    if (end == b.counters.end()) {
      d.unread.push_back({name, "read at the start, not at the end"});
      continue;
    }
    d.counters.push_back(counter_delta(name, start, end->second));
  }
  for (const auto& [name, end] : b.counters) {
    if (!a.counters.count(name)) d.unread.push_back({name, "read at the end, not at the start"});
  }
  std::map<std::string, Gauge> gauges;
  for (const auto& [name, v] : a.gauges) gauges[name].start = v;
  for (const auto& [name, v] : b.gauges) gauges[name].end = v;
  for (auto& [name, g] : gauges) {
    g.name = name;
    d.gauges.push_back(g);
  }
  return d;
}

}  // namespace

CounterDelta counter_delta(const std::string& name, const RawCounter& start,
                           const RawCounter& end) {
  CounterDelta d{name, start.value, end.value, 0, ""};
  const unsigned bits = std::clamp(end.bits, 1U, 64U);
  const std::uint64_t limit = limit_of(bits);
  if (end.value >= start.value) {
    d.delta = end.value - start.value;
    if (end.overflow == Overflow::saturates && bits < 64 && end.value == limit && d.delta > 0)
      d.note = "saturated at " + std::to_string(limit) + ": at least " + std::to_string(d.delta);
    else if (end.overflow == Overflow::saturates && bits < 64 && end.value == limit)
      d.note = "saturated at " + std::to_string(limit) + " since before the launch: change unknown";
    return d;
  }
  // end < start
  if (end.overflow == Overflow::wraps && bits < 64 && start.value <= limit) {
    d.delta = (limit - start.value) + end.value + 1;  // one wrap through 2^bits
    d.note = "wrapped at 2^" + std::to_string(bits) + " (one wrap assumed)";
    return d;
  }
  d.delta = end.value;
  d.note = "went back from " + std::to_string(start.value) + " to " + std::to_string(end.value) +
           " (reset during the launch): counted from 0";
  return d;
}

std::vector<DeviceCounters> device_deltas(const std::vector<DeviceSample>& start,
                                          const std::vector<DeviceSample>& end) {
  std::vector<DeviceCounters> out;
  for (const DeviceSample& a : start) {
    const auto b = std::find_if(end.begin(), end.end(),
                                [&](const DeviceSample& s) { return key_of(s) == key_of(a); });
    if (b == end.end()) {
      DeviceCounters d = device_only(a);
      d.vanished = true;
      d.unread.push_back({"*", "the device was gone at the end of the launch"});
      out.push_back(std::move(d));
    } else {
      out.push_back(pair_delta(a, *b));
    }
  }
  for (const DeviceSample& b : end) {
    const bool known = std::any_of(start.begin(), start.end(),
                                   [&](const DeviceSample& s) { return key_of(s) == key_of(b); });
    if (known) continue;
    DeviceCounters d = device_only(b);
    d.unread.push_back({"*", "the device appeared during the launch: no start reading"});
    out.push_back(std::move(d));
  }
  return out;
}

const CounterDelta* DeviceCounters::counter(const std::string& name) const {
  for (const CounterDelta& c : counters)
    if (c.name == name) return &c;
  return nullptr;
}

const Gauge* DeviceCounters::gauge(const std::string& name) const {
  for (const Gauge& g : gauges)
    if (g.name == name) return &g;
  return nullptr;
}

bool DeviceCounters::has_event(const std::string& name) const {
  return std::find(events.begin(), events.end(), name) != events.end();
}

}  // namespace fabricgate::counters
