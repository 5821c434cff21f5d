// Splits an NCCL debug line into prefix and message and recognises the short one-line facts.
// Longer grammars (transports, tuning, channel counts, communicator init) live in their own files.
//
// Line shapes (src/debug.cc, 2.18 .. 2.30):
//   [timestamp ]host:pid:tid [cudaDev] NCCL INFO <message>     (timestamp only when enabled, 2.26+)
//   NCCL version 2.28.3+cuda13.0                              (VERSION level, 2.26+: no prefix)
// mpirun --tag-output may put "[1,0]<stdout>:" in front; RCCL appends " comm 0x.. nRanks 8".
#include <charconv>

#include "harness/analysis/log_facts.hpp"
#include "harness/analysis/text_scan.hpp"

namespace fabricgate::capture {
namespace {

constexpr std::string_view kInfoMarker = "NCCL INFO ";
constexpr std::string_view kWarnMarker = "NCCL WARN ";

// Reads "host:pid:tid [dev]" from the text in front of the INFO marker, right to left, so that
// a timestamp or an mpirun tag before the host does not matter.
std::optional<LinePrefix> parse_prefix(std::string_view before) {
  before = trim(before);
  if (!before.ends_with(']')) return std::nullopt;
  const std::size_t open = before.rfind('[');
  if (open == std::string_view::npos) return std::nullopt;
  LinePrefix prefix;
  TextScan dev(before.substr(open + 1, before.size() - open - 2));
  const auto dev_value = dev.integer();
  if (!dev_value || !dev.done() || *dev_value < -1 || *dev_value > 1'000'000) return std::nullopt;
  prefix.cuda_dev = static_cast<int>(*dev_value);

  std::string_view who = trim(before.substr(0, open));
  const std::size_t space = who.find_last_of(" \t");
  if (space != std::string_view::npos) who = who.substr(space + 1);
  // who = [tag:]host:pid:tid
  const std::size_t c2 = who.rfind(':');
  if (c2 == std::string_view::npos) return std::nullopt;
  const std::size_t c1 = who.rfind(':', c2 == 0 ? 0 : c2 - 1);
  if (c1 == std::string_view::npos || c1 == c2) return std::nullopt;
  TextScan pid(who.substr(c1 + 1, c2 - c1 - 1));
  TextScan tid(who.substr(c2 + 1));
  const auto pid_value = pid.integer();
  const auto tid_value = tid.integer();
  if (!pid_value || !pid.done() || !tid_value || !tid.done()) return std::nullopt;
  prefix.pid = *pid_value;
  prefix.tid = *tid_value;
  std::string_view host = who.substr(0, c1);
  const std::size_t tag = host.find_last_of(":>");  // "[1,0]<stdout>:host"
  if (tag != std::string_view::npos) host = host.substr(tag + 1);
  prefix.host = std::string(host);
  return prefix;
}

std::optional<LineFact> parse_version(std::string_view message) {
  TextScan scan(message);
  if (!scan.literal("NCCL version ")) return std::nullopt;
  const std::string_view full = scan.word();
  std::size_t n = 0;
  while (n < full.size() && ((full[n] >= '0' && full[n] <= '9') || full[n] == '.')) ++n;
  if (n == 0) return std::nullopt;
  return VersionFact{std::string(full.substr(0, n)), std::string(full)};
}

std::optional<LineFact> parse_connected(std::string_view message) {
  ConnectedFact fact;
  if (message.starts_with("Connected all rings")) {
    fact.what = ConnectedFact::What::rings;
    TextScan scan(message.substr(std::string_view("Connected all rings").size()));
    if (scan.literal(", use ring PXN ")) {
      if (auto pxn = scan.integer()) fact.ring_pxn = static_cast<int>(*pxn);
      if (scan.literal(" GDR ")) {
        if (auto gdr = scan.integer()) fact.ring_gdr = static_cast<int>(*gdr);
      }
    }
    return fact;
  }
  if (message.starts_with("Connected all trees")) {
    fact.what = ConnectedFact::What::trees;
    return fact;
  }
  if (message.starts_with("Connected NVLS tree")) {
    fact.what = ConnectedFact::What::nvls_tree;
    return fact;
  }
  if (message.starts_with("rank ") && trim(message).ends_with(" Connected CollNet")) {
    fact.what = ConnectedFact::What::collnet;
    return fact;
  }
  return std::nullopt;
}

std::optional<LineFact> parse_nvls(std::string_view message) {
  TextScan scan(message);
  if (!scan.literal("NVLS multicast support is ")) return std::nullopt;
  NvlsFact fact;
  fact.available = !scan.literal("not ");
  if (!scan.literal("available on dev ")) return std::nullopt;
  if (auto dev = scan.integer()) fact.dev = static_cast<int>(*dev);
  return fact;
}

bool is_env_name(std::string_view name) {
  if (name.empty() || name.size() > 128) return false;
  for (char c : name) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// "%s set by environment to %s" and, for integer parameters, "%s set by environment to %lld."
std::optional<LineFact> parse_env(std::string_view message) {
  constexpr std::string_view kSet = " set by environment to ";
  const std::size_t at = message.find(kSet);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view name = message.substr(0, at);
  if (!is_env_name(name)) return std::nullopt;
  std::string_view value = trim(message.substr(at + kSet.size()));
  if (value.ends_with('.')) {
    std::string_view number = value.substr(0, value.size() - 1);
    if (number.starts_with('-')) number.remove_prefix(1);
    if (all_digits(number)) value.remove_suffix(1);
  }
  return EnvOverrideFact{std::string(name), std::string(value)};
}

std::optional<LineFact> parse_profiler_plugin(std::string_view message) {
  TextScan scan(message);
  if (!scan.literal("PROFILER/Plugin: Loaded ")) return std::nullopt;
  const std::string_view rest = trim(scan.rest());
  const std::size_t open = rest.rfind(" (v");
  if (open == std::string_view::npos || !rest.ends_with(')')) return std::nullopt;
  TextScan version(rest.substr(open + 3, rest.size() - open - 4));
  const auto v = version.integer();
  if (!v || !version.done()) return std::nullopt;
  return ProfilerPluginFact{std::string(rest.substr(0, open)), static_cast<int>(*v)};
}

std::optional<LineFact> parse_provider(std::string_view message) {
  if (!message.starts_with("NET/OFI ")) return std::nullopt;
  for (std::string_view key : {"Selected Provider is ", "Selected provider is "}) {
    const std::size_t at = message.find(key);
    if (at == std::string_view::npos) continue;
    std::string_view rest = message.substr(at + key.size());
    const std::size_t end = rest.find_first_of(" ,");
    rest = rest.substr(0, end);
    if (rest.empty()) return std::nullopt;
    return NetProviderFact{std::string(rest)};
  }
  return std::nullopt;
}

std::optional<LineFact> parse_coll_call(std::string_view message) {
  const std::size_t at = message.find(": opCount ");
  if (at == std::string_view::npos || at == 0 || at > 64) return std::nullopt;
  const std::string_view func = message.substr(0, at);
  if (func.find(' ') != std::string_view::npos) return std::nullopt;
  return CollCallFact{std::string(func)};
}

}  // namespace

std::optional<LineFact> parse_nccl_message(std::string_view message) {
  message = trim(message);
  if (message.empty()) return std::nullopt;
  if (auto fact = parse_version(message)) return fact;
  if (message.starts_with("Using network ")) {
    const std::string_view name = trim(message.substr(std::string_view("Using network ").size()));
    if (name.empty()) return std::nullopt;
    return NetworkFact{std::string(name)};
  }
  if ((message.starts_with("Channel ") || message.starts_with("CollNet ")) &&
      message.find(" via ") != std::string_view::npos) {
    if (auto fact = detail::parse_transport_message(message)) return *fact;
    return std::nullopt;
  }
  if (auto fact = parse_connected(message)) return fact;
  if (auto fact = parse_nvls(message)) return fact;
  if (message.find(" coll channels") != std::string_view::npos) {
    if (auto fact = detail::parse_channel_counts(message)) return *fact;
    return std::nullopt;
  }
  if (auto fact = parse_env(message)) return fact;
  if (message.find(" Bytes -> ") != std::string_view::npos) {
    if (auto fact = detail::parse_tuning_message(message)) return *fact;
    return std::nullopt;
  }
  if (message.find("Init COMPLETE") != std::string_view::npos ||
      message.find("Init START") != std::string_view::npos) {
    if (auto fact = detail::parse_comm_init(message)) return *fact;
    return std::nullopt;
  }
  if (auto fact = parse_profiler_plugin(message)) return fact;
  if (auto fact = parse_provider(message)) return fact;
  return parse_coll_call(message);
}

std::optional<ParsedLine> parse_nccl_log_line(std::string_view line) {
  line = trim(line);
  const std::size_t marker = line.find(kInfoMarker);
  if (const std::size_t warn = line.find(kWarnMarker);
      marker == std::string_view::npos && warn != std::string_view::npos) {
    const std::string_view text = trim(line.substr(warn + kWarnMarker.size()));
    if (text.empty()) return std::nullopt;
    // The prefix ends with the source location ("enqueue.cc:1842"): drop that word first.
    std::string_view before = trim(line.substr(0, warn));
    if (const std::size_t space = before.find_last_of(" \t"); space != std::string_view::npos)
      before = before.substr(0, space);
    return ParsedLine{parse_prefix(before),
                      WarningFact{std::string(text.substr(0, kMaxWarningChars))}};
  }
  if (marker == std::string_view::npos) {
    // Bare VERSION-level line, possibly behind an mpirun output tag.
    std::size_t start = line.find("NCCL version ");
    if (start == std::string_view::npos) return std::nullopt;
    const std::string_view before = line.substr(0, start);
    if (!before.empty() && !before.ends_with(':') && !before.ends_with('>')) return std::nullopt;
    auto fact = parse_version(line.substr(start));
    if (!fact) return std::nullopt;
    return ParsedLine{std::nullopt, std::move(*fact)};
  }
  auto fact = parse_nccl_message(line.substr(marker + kInfoMarker.size()));
  if (!fact) return std::nullopt;
  return ParsedLine{parse_prefix(line.substr(0, marker)), std::move(*fact)};
}

}  // namespace fabricgate::capture
