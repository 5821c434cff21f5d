#include "harness/analysis/capture_summary.hpp"

#include <algorithm>
#include <array>
#include <tuple>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "harness/analysis/text_scan.hpp"

namespace fabricgate::capture {

std::string CaptureSummary::network() const {
  std::string joined;
  for (const auto& n : networks) {
    if (!joined.empty()) joined += '+';
    joined += n;
  }
  return joined;
}

bool CaptureSummary::has_transport_prefix(std::string_view prefix) const {
  return std::any_of(transports.begin(), transports.end(),
                     [&](const std::string& t) { return std::string_view(t).starts_with(prefix); });
}

std::string format_bus_id(std::uint64_t bus_id) {
  // Same split as NCCL's int64ToBusId: domain, bus, device, function.
  return fmt::format("{:04x}:{:02x}:{:02x}.{:01x}", bus_id >> 20, (bus_id & 0xff000) >> 12,
                     (bus_id & 0xff0) >> 4, bus_id & 0xf);
}

void CaptureAccumulator::add_text(std::string_view text) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (auto parsed = parse_nccl_log_line(line)) add(*parsed);
  }
}

void CaptureAccumulator::add(const ParsedLine& line) {
  CaptureSummary& s = summary_;
  ++s.lines_recognised;
  std::visit(
      [&](const auto& fact) {
        using T = std::decay_t<decltype(fact)>;
        if constexpr (std::is_same_v<T, VersionFact>) {
          if (s.nccl_version.empty()) s.nccl_version = fact.version;
          s.nccl_versions_full.insert(fact.full);
        } else if constexpr (std::is_same_v<T, NetworkFact>) {
          s.networks.insert(fact.name);
        } else if constexpr (std::is_same_v<T, NetProviderFact>) {
          if (s.net_provider.empty()) s.net_provider = fact.provider;
        } else if constexpr (std::is_same_v<T, TransportFact>) {
          s.transports.insert(fact.kind);
          ++s.transport_connections[fact.variant];
          s.gdrdma = s.gdrdma || fact.gdrdma;
        } else if constexpr (std::is_same_v<T, ConnectedFact>) {
          switch (fact.what) {
            case ConnectedFact::What::rings:
              s.rings_connected = true;
              if (fact.ring_pxn) s.ring_pxn = fact.ring_pxn;
              if (fact.ring_gdr) s.ring_gdr = fact.ring_gdr;
              break;
            case ConnectedFact::What::trees: s.trees_connected = true; break;
            case ConnectedFact::What::nvls_tree: s.nvls_tree_connected = true; break;
            case ConnectedFact::What::collnet: s.collnet_connected = true; break;
          }
        } else if constexpr (std::is_same_v<T, NvlsFact>) {
          s.nvls_available = s.nvls_available.value_or(false) || fact.available;
        } else if constexpr (std::is_same_v<T, ChannelCountsFact>) {
          if (std::find(s.channels.begin(), s.channels.end(), fact) == s.channels.end())
            s.channels.push_back(fact);
        } else if constexpr (std::is_same_v<T, EnvOverrideFact>) {
          s.env_overrides[fact.name] = fact.value;
        } else if constexpr (std::is_same_v<T, WarningFact>) {
          if (s.warnings.size() < kMaxDistinctWarnings || s.warnings.contains(fact.text))
            ++s.warnings[fact.text];
        } else if constexpr (std::is_same_v<T, TuningFact>) {
          ++tuning_[TuningKey{fact.func, fact.bytes, fact.algo, fact.proto, fact.kernel,
                              fact.channels}];
        } else if constexpr (std::is_same_v<T, CommInitFact>) {
          RankInfo info;
          info.rank = fact.rank;
          info.nranks = fact.nranks;
          info.cuda_dev = fact.cuda_dev;
          info.nvml_dev = fact.nvml_dev;
          if (fact.has_bus_id) info.bus_id = format_bus_id(fact.bus_id);
          if (line.prefix) {
            info.host = line.prefix->host;
            info.pid = line.prefix->pid;
          }
          info.init_complete = fact.complete;
          auto same = std::find_if(s.ranks.begin(), s.ranks.end(), [&](const RankInfo& r) {
            return r.rank == info.rank && r.nranks == info.nranks && r.bus_id == info.bus_id &&
                   r.host == info.host;
          });
          if (same == s.ranks.end()) {
            s.ranks.push_back(std::move(info));
          } else if (info.init_complete) {
            same->init_complete = true;
          }
        } else if constexpr (std::is_same_v<T, ProfilerPluginFact>) {
          s.profiler_plugin = fact.name + " (v" + std::to_string(fact.version) + ")";
        } else if constexpr (std::is_same_v<T, CollCallFact>) {
          ++s.collective_calls[fact.func];
        }
      },
      line.fact);
}

CaptureSummary CaptureAccumulator::finish() const {
  CaptureSummary s = summary_;
  std::sort(s.ranks.begin(), s.ranks.end(), [](const RankInfo& a, const RankInfo& b) {
    return std::tie(b.nranks, a.rank, a.host, a.bus_id) <
           std::tie(a.nranks, b.rank, b.host, b.bus_id);
  });
  for (const auto& [key, count] : tuning_) {
    const auto& [func, bytes, algo, proto, kernel, channels] = key;
    s.tuning.push_back(TuningChoice{func, bytes, algo, proto, kernel, channels, count});
  }
  return s;
}

CaptureSummary parse_nccl_logs(const std::vector<std::string>& texts) {
  CaptureAccumulator acc;
  for (const auto& text : texts) acc.add_text(text);
  return acc.finish();
}

}  // namespace fabricgate::capture
