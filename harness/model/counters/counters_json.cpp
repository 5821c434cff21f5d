#include "harness/model/counters/counters_json.hpp"

#include <cmath>

#include "core/errors.hpp"

namespace fabricgate::counters {

using nlohmann::json;

namespace {

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json unread_json(const std::vector<Unread>& list) {
  json out = json::array();
  for (const Unread& u : list) out.push_back({{"what", u.what}, {"reason", u.reason}});
  return out;
}

json device_json(const DeviceCounters& d) {
  json counters = json::object();
  for (const CounterDelta& c : d.counters) {
    json entry = {{"start", c.start}, {"end", c.end}, {"delta", c.delta}};
    if (!c.note.empty()) entry["note"] = c.note;
    counters[c.name] = std::move(entry);
  }
  json gauges = json::object();
  for (const Gauge& g : d.gauges)
    gauges[g.name] = {{"start", optional_number(g.start)}, {"end", optional_number(g.end)}};
  json out = {{"kind", d.kind},         {"device", d.device},
              {"identity", d.identity}, {"vanished", d.vanished},
              {"counters", counters},   {"gauges", gauges},
              {"events", d.events},     {"unread", unread_json(d.unread)}};
  if (d.kind == "rdma") out["port"] = d.port;
  return out;
}

// A small strict reader over one section; every failure names origin and pointer.
class Reader {
 public:
  explicit Reader(std::string origin) : origin_(std::move(origin)) {}

  [[noreturn]] void fail(const std::string& p, const std::string& expectation) const {
    throw InputError(origin_, p, expectation);
  }
  const json& object(const json& v, const std::string& p) const {
    if (!v.is_object()) fail(p, "an object");
    return v;
  }
  const json& array(const json& v, const std::string& p) const {
    if (!v.is_array()) fail(p, "an array");
    return v;
  }
  std::string text(const json& o, const std::string& key, const std::string& p) const {
    const auto it = o.find(key);
    if (it == o.end() || it->is_null()) return {};
    if (!it->is_string()) fail(p + "/" + key, "a string");
    return it->get<std::string>();
  }
  bool flag(const json& o, const std::string& key, const std::string& p) const {
    const auto it = o.find(key);
    if (it == o.end()) return false;
    if (!it->is_boolean()) fail(p + "/" + key, "true or false");
    return it->get<bool>();
  }
  std::uint64_t count(const json& v, const std::string& p) const {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer() && v.get<long long>() >= 0) return v.get<std::uint64_t>();
    fail(p, "a non-negative integer");
  }
  std::optional<double> number(const json& o, const std::string& key, const std::string& p) const {
    const auto it = o.find(key);
    if (it == o.end() || it->is_null()) return std::nullopt;
    if (!it->is_number() || !std::isfinite(it->get<double>()))
      fail(p + "/" + key, "a finite number or null");
    return it->get<double>();
  }
  std::vector<Unread> unread(const json& o, const std::string& p) const {
    std::vector<Unread> out;
    const auto it = o.find("unread");
    if (it == o.end()) return out;
    const std::string q = p + "/unread";
    array(*it, q);
    for (std::size_t i = 0; i < it->size(); ++i) {
      const std::string e = q + "/" + std::to_string(i);
      object((*it)[i], e);
      out.push_back({text((*it)[i], "what", e), text((*it)[i], "reason", e)});
    }
    return out;
  }

 private:
  std::string origin_;
};

DeviceCounters device_from(const Reader& r, const json& v, const std::string& p) {
  r.object(v, p);
  DeviceCounters d;
  d.kind = r.text(v, "kind", p);
  if (d.kind != "gpu" && d.kind != "rdma" && d.kind != "host")
    r.fail(p + "/kind", "\"gpu\", \"rdma\" or \"host\"");
  d.device = r.text(v, "device", p);
  d.identity = r.text(v, "identity", p);
  d.vanished = r.flag(v, "vanished", p);
  if (const auto it = v.find("port"); it != v.end()) {
    const std::uint64_t port = r.count(*it, p + "/port");
    if (port > 255) r.fail(p + "/port", "a port number 0..255");
    d.port = static_cast<unsigned>(port);
  }
  if (const auto it = v.find("counters"); it != v.end()) {
    r.object(*it, p + "/counters");
    for (const auto& [name, c] : it->items()) {
      const std::string q = p + "/counters/" + name;
      r.object(c, q);
      CounterDelta delta;
      delta.name = name;
      for (const char* field : {"start", "end", "delta"}) {
        if (!c.contains(field)) r.fail(q + "/" + field, "a non-negative integer");
      }
      delta.start = r.count(c.at("start"), q + "/start");
      delta.end = r.count(c.at("end"), q + "/end");
      delta.delta = r.count(c.at("delta"), q + "/delta");
      delta.note = r.text(c, "note", q);
      d.counters.push_back(std::move(delta));
    }
  }
  if (const auto it = v.find("gauges"); it != v.end()) {
    r.object(*it, p + "/gauges");
    for (const auto& [name, g] : it->items()) {
      const std::string q = p + "/gauges/" + name;
      r.object(g, q);
      d.gauges.push_back({name, r.number(g, "start", q), r.number(g, "end", q)});
    }
  }
  if (const auto it = v.find("events"); it != v.end()) {
    r.array(*it, p + "/events");
    for (std::size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_string()) r.fail(p + "/events/" + std::to_string(i), "a string");
      d.events.push_back((*it)[i].get<std::string>());
    }
  }
  d.unread = r.unread(v, p);
  return d;
}

}  // namespace

json to_json(const RunnerCounters& c) {
  json devices = json::array();
  for (const DeviceCounters& d : c.devices) devices.push_back(device_json(d));
  json foreign = json::array();
  for (const ForeignProcess& f : c.foreign_processes) {
    foreign.push_back({{"pid", f.pid},
                       {"name", f.name},
                       {"gpu_index", f.gpu_index},
                       {"gpu_uuid", f.gpu_uuid},
                       {"used_memory_bytes", f.used_memory_bytes},
                       {"sm_percent", optional_number(f.sm_percent)},
                       {"seen", f.seen}});
  }
  return {{"wall_s", c.wall_s},
          {"snapshot_ms", c.snapshot_ms},
          {"processes_checked", c.processes_checked},
          {"devices", std::move(devices)},
          {"foreign_processes", std::move(foreign)},
          {"unread", unread_json(c.unread)}};
}

json compact_json(const RunnerCounters& c) {
  json devices = json::object();
  for (const DeviceCounters& d : c.devices) {
    json moved = json::object();
    for (const CounterDelta& k : d.counters) {
      if (k.delta == 0 && k.note.empty()) continue;
      moved[k.name] = k.note.empty() ? json(k.delta) : json{{"delta", k.delta}, {"note", k.note}};
    }
    if (moved.empty() && d.events.empty() && !d.vanished) continue;
    json entry = {{"kind", d.kind}, {"deltas", std::move(moved)}};
    if (!d.events.empty()) entry["events"] = d.events;
    if (d.vanished) entry["vanished"] = true;
    devices[d.kind == "rdma" ? d.device + "/" + std::to_string(d.port) : d.device] =
        std::move(entry);
  }
  json out = to_json(c);
  out.erase("devices");
  out["devices"] = std::move(devices);
  return out;
}

RunnerCounters runner_counters_from_json(const json& v, const std::string& origin,
                                         const std::string& p) {
  const Reader r(origin);
  r.object(v, p);
  RunnerCounters c;
  c.present = true;
  c.wall_s = r.number(v, "wall_s", p).value_or(0);
  c.snapshot_ms = r.number(v, "snapshot_ms", p).value_or(0);
  if (c.wall_s < 0) r.fail(p + "/wall_s", "a non-negative number of seconds");
  if (c.snapshot_ms < 0) r.fail(p + "/snapshot_ms", "a non-negative number of milliseconds");
  c.processes_checked = r.flag(v, "processes_checked", p);
  if (const auto it = v.find("devices"); it != v.end()) {
    r.array(*it, p + "/devices");
    for (std::size_t i = 0; i < it->size(); ++i)
      c.devices.push_back(device_from(r, (*it)[i], p + "/devices/" + std::to_string(i)));
  }
  if (const auto it = v.find("foreign_processes"); it != v.end()) {
    r.array(*it, p + "/foreign_processes");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const std::string q = p + "/foreign_processes/" + std::to_string(i);
      const json& e = r.object((*it)[i], q);
      ForeignProcess f;
      if (!e.contains("pid")) r.fail(q + "/pid", "a process id");
      const std::uint64_t pid = r.count(e.at("pid"), q + "/pid");
      if (pid == 0 || pid > 0xffffffffULL) r.fail(q + "/pid", "a process id 1..2^32-1");
      f.pid = static_cast<unsigned>(pid);
      f.name = r.text(e, "name", q);
      if (e.contains("gpu_index")) {
        const std::uint64_t g = r.count(e.at("gpu_index"), q + "/gpu_index");
        if (g > 4096) r.fail(q + "/gpu_index", "a GPU index 0..4096");
        f.gpu_index = static_cast<unsigned>(g);
      }
      f.gpu_uuid = r.text(e, "gpu_uuid", q);
      if (e.contains("used_memory_bytes"))
        f.used_memory_bytes = r.count(e.at("used_memory_bytes"), q + "/used_memory_bytes");
      f.sm_percent = r.number(e, "sm_percent", q);
      f.seen = r.text(e, "seen", q);
      c.foreign_processes.push_back(std::move(f));
    }
  }
  c.unread = r.unread(v, p);
  return c;
}

}  // namespace fabricgate::counters
