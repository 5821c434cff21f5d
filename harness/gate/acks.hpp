#pragma once
// Acknowledged failures (issue 56; docs/ACKS.md): a reviewed file, <baselines-dir>/acks.json
// (schema fabricgate.acks/1), each entry a key pattern (glob: * and ?), the platform, the reason
// (the URL), who, and the date it expires. While it holds, a key it matches that fails the
// gate is ACKED instead (a warning, never exit 1, never a level or a baseline window); from its
// expiry date on, the key fails again and the run says the ack expired. A known problem stays
// visible without keeping the nightly red for weeks, and without thresholds widened until the gate
// means nothing.
//
// An entry acknowledges either keys (`key`) or runner findings (`finding`, a glob over the finding
// id such as HOST-OUTLIER or DEGRADED-LINK, with `node`, a glob over the node it names, default
// every node): a node known to be slow until its NIC is swapped. An acked finding fails nothing
// and plans no node action (no drain, no cordon, no HealthEvent) until the expiry.
//
// Loading is strict (exit 2 naming file and entry): an unknown field, an empty or over-long
// pattern, a platform that is not a safe name, a reason that is not an http(s) URL, no `who`, an
// expiry that is not a YYYY-MM-DD date or lies more than 180 days after today (an ack that never
// expires is a threshold by another name).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

inline constexpr const char* kAcksSchema = "fabricgate.acks/1";
inline constexpr int kMaxAckDays = 180;

struct Ack {
  std::string key;       // glob over the benchmark key; "" for a finding ack
  std::string platform;  // exact platform key
  std::string reason;    // http(s) URL of the issue
  std::string who;
  std::string expires;  // YYYY-MM-DD: the ack holds before this date (UTC), not on it
  std::string origin;   // file#/acks/i, for messages
  std::string finding;  // glob over a runner finding's id (HOST-OUTLIER); "" for a key ack
  std::string node;     // with `finding`: glob over the node it names ("" = "*")
  // What it covers, for messages: the key, or "FINDING on NODE".
  std::string what() const;
};

struct Acks {
  std::string source;  // the file, "" when there is none
  std::vector<Ack> entries;
};

// `today`: YYYY-MM-DD (UTC). Throws InputError naming the file and the entry's field.
Acks load_acks(const std::filesystem::path& file, const std::string& today);
// <baselines_dir>/acks.json when it exists, else none.
Acks find_acks(const std::filesystem::path& baselines_dir, const std::string& today);

// Today's date, UTC, YYYY-MM-DD.
std::string utc_today();

// Turns the failing keys an active ack of `platform` matches into ACKED (the reason says until
// when, by whom, why, and what the verdict was), adds a warning per active ack used and per
// expired ack whose key fails again. Returns the number of keys acked.
std::size_t apply_acks(verdict::Comparison& c, const Acks& acks, const std::string& platform,
                       const std::string& today);

// Turns the blaming runner findings (failing ones, and HOST-OUTLIER) an active finding ack of
// `platform` matches into acked ones (ClusterFinding::acked: fails nothing, plans no node action;
// the text says until when, by whom and why), and adds to `warnings` a line per active ack used and
// per expired one whose finding is back. Returns the number acked.
std::size_t apply_finding_acks(std::vector<verdict::ClusterFinding>& findings,
                               std::vector<std::string>& warnings, const Acks& acks,
                               const std::string& platform, const std::string& today);

// The entry as written by `fabricgate ack`, validated like a loaded one (InputError naming
// `field` of the option it came from).
void validate_ack(const Ack& a, const std::string& today);

}  // namespace fabricgate::gate
