#include "core/benchmark_result.hpp"

#include <algorithm>

namespace fabricgate {

const char* status_name(ResultStatus status) {
  switch (status) {
    case ResultStatus::ok: return "ok";
    case ResultStatus::skipped: return "skipped";
    case ResultStatus::error: return "error";
    case ResultStatus::wrong: return "wrong";
  }
  return "?";
}

std::string BenchmarkResult::provider() const {
  auto it = params.find("provider");
  return (it != params.end() && it->is_string()) ? it->get<std::string>() : std::string();
}

bool BenchmarkResult::has_error_note() const {
  for (const Note& n : notes) {
    if (n.level == "error") return true;
  }
  return false;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

void summarise_samples(BenchmarkResult& r) {
  r.time_us = median(r.samples.time_us);
  r.algbw_GBps = median(r.samples.algbw_GBps);
  r.busbw_GBps.reset();
  if (!r.samples.busbw_GBps.empty()) r.busbw_GBps = median(r.samples.busbw_GBps);
}

nlohmann::json to_json(const Choice& c) {
  nlohmann::json j = {{"algo", c.algo},
                      {"proto", c.proto},
                      {"channels", c.channels},
                      {"warps", c.warps},
                      {"funcs", c.funcs}};
  if (c.events) j["events"] = *c.events;
  return j;
}

nlohmann::json to_json(const BenchmarkResult& r) {
  nlohmann::json j = {
      {"type", "benchmark"},
      {"key", r.key},
      {"family", r.family},
      {"backend", r.backend},
      {"op", r.op},
      {"params", r.params},
      {"bytes", r.bytes},
      {"nranks", r.nranks},
      {"gpus_per_process", r.gpus_per_process},
      {"status", status_name(r.status)},
      {"message", r.message},
      {"repetitions", r.repetitions},
      {"iterations", r.iterations},
      {"wrong_elements", r.wrong_elements},
  };
  if (r.status == ResultStatus::ok) {
    nlohmann::json samples = {{"time_us", r.samples.time_us}};
    j["time_us"] = r.time_us;
    if (!r.samples.algbw_GBps.empty()) {
      samples["algbw_GBps"] = r.samples.algbw_GBps;
      j["algbw_GBps"] = r.algbw_GBps;
    }
    if (!r.samples.busbw_GBps.empty()) samples["busbw_GBps"] = r.samples.busbw_GBps;
    if (r.busbw_GBps) j["busbw_GBps"] = *r.busbw_GBps;
    j["samples"] = samples;
    j["warmup_us"] = r.warmup_us;
  }
  if (r.busbw_factor > 0) j["busbw_factor"] = r.busbw_factor;
  if (r.choice) j["choice"] = to_json(*r.choice);
  if (r.transport) {
    j["transport"] = {{"network", r.transport->network}, {"transports", r.transport->transports}};
  }
  if (r.status == ResultStatus::ok && !r.ranks.empty()) j["ranks"] = to_json(r.ranks);
  nlohmann::json notes = nlohmann::json::array();
  for (const auto& n : r.notes)
    notes.push_back({{"id", n.id}, {"level", n.level}, {"text", n.text}});
  j["notes"] = notes;
  return j;
}

}  // namespace fabricgate
