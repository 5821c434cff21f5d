#include "harness/analysis/capture_json.hpp"

#include <string>

#include "harness/model/secret_redaction.hpp"

namespace fabricgate::capture {
namespace {

json optional_int(const std::optional<int>& v) { return v ? json(*v) : json(nullptr); }

json channels_to_json(const ChannelCountsFact& c) {
  auto field = [](int v) { return v < 0 ? json(nullptr) : json(v); };
  return json{{"coll", field(c.coll)},
              {"collnet", field(c.collnet)},
              {"nvls", field(c.nvls)},
              {"p2p", field(c.p2p)},
              {"p2p_per_peer", field(c.p2p_per_peer)}};
}

}  // namespace

json capture_to_json(const CaptureSummary& s, std::string_view path) {
  json out;
  out["path"] = path.empty() ? (s.lines_recognised > 0 ? "log" : "none") : std::string(path);
  out["nccl_version"] = s.nccl_version;
  out["network"] = s.network();
  out["transports"] = json(std::vector<std::string>(s.transports.begin(), s.transports.end()));
  out["gdrdma"] = s.gdrdma;
  out["env_overrides"] = json(recordable_environment(s.env_overrides));  // published: no secrets

  out["nccl_versions_full"] =
      json(std::vector<std::string>(s.nccl_versions_full.begin(), s.nccl_versions_full.end()));
  out["networks"] = json(std::vector<std::string>(s.networks.begin(), s.networks.end()));
  out["net_provider"] = s.net_provider;
  out["transport_connections"] = json(s.transport_connections);
  out["nvls_available"] = s.nvls_available ? json(*s.nvls_available) : json(nullptr);
  json channels = json::array();
  for (const auto& c : s.channels) channels.push_back(channels_to_json(c));
  out["channels"] = std::move(channels);
  out["rings_connected"] = s.rings_connected;
  out["trees_connected"] = s.trees_connected;
  out["nvls_tree_connected"] = s.nvls_tree_connected;
  out["collnet_connected"] = s.collnet_connected;
  out["ring_pxn"] = optional_int(s.ring_pxn);
  out["ring_gdr"] = optional_int(s.ring_gdr);
  out["profiler_plugin"] = s.profiler_plugin;
  json ranks = json::array();
  for (const auto& r : s.ranks) {
    ranks.push_back(json{{"rank", r.rank},
                         {"nranks", r.nranks},
                         {"cuda_dev", r.cuda_dev},
                         {"nvml_dev", r.nvml_dev},
                         {"bus_id", r.bus_id},
                         {"host", r.host},
                         {"pid", r.pid},
                         {"init_complete", r.init_complete}});
  }
  out["ranks"] = std::move(ranks);
  json tuning = json::array();
  for (const auto& t : s.tuning) {
    json row{{"func", t.func},
             {"bytes", t.bytes},
             {"algo", t.algo},
             {"proto", t.proto},
             {"channels", t.channels < 0 ? json(nullptr) : json(t.channels)},
             {"count", t.count}};
    if (!t.kernel.empty()) row["kernel"] = t.kernel;
    tuning.push_back(std::move(row));
  }
  out["tuning"] = std::move(tuning);
  json warnings = json::array();
  for (const auto& [text, count] : s.warnings)
    warnings.push_back({{"text", text}, {"lines", count}});
  out["warnings"] = std::move(warnings);
  out["lines_recognised"] = s.lines_recognised;
  return out;
}

}  // namespace fabricgate::capture
