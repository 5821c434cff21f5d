#include "harness/gate/acks.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "harness/verdict/finding_ids.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::gate {

namespace {

bool is_date(const std::string& s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  std::tm tm{};
  return ::strptime(s.c_str(), "%Y-%m-%d", &tm) != nullptr;
}

// Days from `from` to `to`, both YYYY-MM-DD.
long days_between(const std::string& from, const std::string& to) {
  std::tm a{};
  std::tm b{};
  ::strptime(from.c_str(), "%Y-%m-%d", &a);
  ::strptime(to.c_str(), "%Y-%m-%d", &b);
  return static_cast<long>((::timegm(&b) - ::timegm(&a)) / 86400);
}

bool safe_name(const std::string& s) {
  if (s.empty() || s.size() > 128) return false;
  for (const char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// Empty when fine, else what the field must be.
std::string problem(const Ack& a, const std::string& today, std::string& field) {
  if (!a.key.empty() && !a.finding.empty())
    return field = "finding", "either a key or a finding, not both (two entries)";
  if (a.finding.empty() && (a.key.empty() || a.key.size() > 512))
    return field = "key", "a key or glob pattern, 1-512 characters (or a finding)";
  if (!a.finding.empty() &&
      (a.finding.size() > 64 || a.finding.find_first_of(" \t\r\n") != std::string::npos))
    return field = "finding", "a finding id or glob (HOST-OUTLIER, DEGRADED-LINK), 1-64 characters";
  if (!a.node.empty() && a.finding.empty())
    return field = "node", "a node goes with a finding (a key ack covers every node)";
  if (a.node.size() > 253 || a.node.find_first_of(" \t\r\n") != std::string::npos)
    return field = "node", "a node name or glob, at most 253 characters, no blanks";
  if (!safe_name(a.platform)) return field = "platform", "a platform key ([A-Za-z0-9._-], 1-128)";
  if (!(a.reason.rfind("https://", 0) == 0 || a.reason.rfind("http://", 0) == 0) ||
      a.reason.size() > 512 || a.reason.find_first_of(" \t\r\n") != std::string::npos)
    return field = "reason", "the URL of the issue that tracks it (http:// or https://, no blanks)";
  if (a.who.empty() || a.who.size() > 128 || a.who.find_first_of("\r\n") != std::string::npos)
    return field = "who", "who acknowledged it (1-128 characters, one line)";
  if (!is_date(a.expires)) return field = "expires", "an expiry date, YYYY-MM-DD";
  if (days_between(today, a.expires) > kMaxAckDays)
    return field = "expires",
           fmt::format(
               "an expiry at most {} days after today ({}): an ack that never expires is a "
               "threshold by another name",
               kMaxAckDays, today);
  return "";
}

// The blaming findings: what fails the gate, and a host outside the fleet (node_actions.cpp).
bool blames(const verdict::ClusterFinding& f) {
  return !f.acked &&
         (f.fails_gate || (f.id == verdict::finding_id::host_outlier && !f.node.empty()));
}

bool matches(const std::string& glob, const std::string& text) {
  return ::fnmatch(glob.c_str(), text.c_str(), 0) == 0;
}

}  // namespace

std::string Ack::what() const {
  if (finding.empty()) return key;
  return finding + " on " + (node.empty() ? std::string("every node") : node);
}

std::string utc_today() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char out[16];
  std::strftime(out, sizeof out, "%Y-%m-%d", &tm);
  return out;
}

void validate_ack(const Ack& a, const std::string& today) {
  std::string field;
  const std::string why = problem(a, today, field);
  if (!why.empty()) throw InputError("--" + field + ": " + why);
}

Acks load_acks(const std::filesystem::path& file, const std::string& today) {
  const nlohmann::json doc = load_json_file(file);
  const JsonReader r(doc, file.string());
  r.object_at("");
  r.only_fields("", {"schema", "description", "acks"});
  if (r.string_at("/schema") != kAcksSchema)
    r.fail("/schema", std::string("\"") + kAcksSchema + "\"");
  Acks out;
  out.source = file.string();
  const nlohmann::json& list = r.array_at("/acks");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string p = "/acks/" + std::to_string(i);
    r.only_fields(p, {"key", "finding", "node", "platform", "reason", "who", "expires"});
    const nlohmann::json& e = doc.at(nlohmann::json::json_pointer(p));
    const auto optional = [&](const char* name) {
      return e.contains(name) ? r.string_at(p + "/" + name) : std::string();
    };
    Ack a{optional("key"),
          r.string_at(p + "/platform"),
          r.string_at(p + "/reason"),
          r.string_at(p + "/who"),
          r.string_at(p + "/expires"),
          file.string() + "#" + p,
          optional("finding"),
          optional("node")};
    std::string field;
    const std::string why = problem(a, today, field);
    if (!why.empty()) r.fail(p + "/" + field, why);
    out.entries.push_back(std::move(a));
  }
  return out;
}

Acks find_acks(const std::filesystem::path& baselines_dir, const std::string& today) {
  std::error_code ec;
  const std::filesystem::path file = baselines_dir / "acks.json";
  if (!std::filesystem::exists(file, ec)) return {};
  return load_acks(file, today);
}

std::size_t apply_acks(verdict::Comparison& c, const Acks& acks, const std::string& platform,
                       const std::string& today) {
  std::size_t acked = 0;
  std::vector<const Ack*> used;
  std::vector<std::string> expired;
  for (verdict::KeyComparison& k : c.keys) {
    if (!verdict::verdict_fails_gate(k.verdict)) continue;
    for (const Ack& a : acks.entries) {
      if (a.key.empty() || a.platform != platform || !matches(a.key, k.key)) continue;
      if (today >= a.expires) {
        expired.push_back(k.key + " (ack expired " + a.expires + ", " + a.reason + ")");
        continue;
      }
      k.reason = "ACKED until " + a.expires + " by " + a.who + " (" + a.reason + "); was " +
                 verdict::verdict_name(k.verdict) + ": " + k.reason;
      k.verdict = verdict::Verdict::acked;
      ++acked;
      if (std::find(used.begin(), used.end(), &a) == used.end()) used.push_back(&a);
      break;
    }
  }
  for (const Ack* a : used)
    c.warnings.push_back("acknowledged failure: " + a->what() + " on " + a->platform + " until " +
                         a->expires + " by " + a->who + ": " + a->reason + " (" + acks.source +
                         ")");
  for (const std::string& e : expired) c.warnings.push_back("fails again: " + e);
  return acked;
}

std::size_t apply_finding_acks(std::vector<verdict::ClusterFinding>& findings,
                               std::vector<std::string>& warnings, const Acks& acks,
                               const std::string& platform, const std::string& today) {
  std::size_t acked = 0;
  std::vector<const Ack*> used;
  for (verdict::ClusterFinding& f : findings) {
    if (!blames(f)) continue;
    for (const Ack& a : acks.entries) {
      if (a.finding.empty() || a.platform != platform || !matches(a.finding, f.id) ||
          !matches(a.node.empty() ? "*" : a.node, f.node))
        continue;
      if (today >= a.expires) {
        warnings.push_back("fails again: " + f.id + " " + f.node + " (ack expired " + a.expires +
                           ", " + a.reason + ")");
        continue;
      }
      f.text = "ACKED until " + a.expires + " by " + a.who + " (" + a.reason + "); was: " + f.text;
      f.fails_gate = false;
      f.acked = true;
      ++acked;
      if (std::find(used.begin(), used.end(), &a) == used.end()) used.push_back(&a);
      break;
    }
  }
  for (const Ack* a : used)
    warnings.push_back("acknowledged failure: " + a->what() + " on " + a->platform + " until " +
                       a->expires + " by " + a->who + ": " + a->reason + " (" + acks.source + ")");
  return acked;
}

}  // namespace fabricgate::gate
