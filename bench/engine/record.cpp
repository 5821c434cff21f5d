#include "bench/engine/record.hpp"

#include <algorithm>

#include "harness/model/json_file.hpp"

namespace fabricgate::bench {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

nlohmann::json to_json(const BenchmarkRecord& r) {
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
      {"status", r.status},
      {"message", r.message},
      {"repetitions", r.repetitions},
      {"iterations", r.iterations},
      {"wrong_elements", r.wrong_elements},
  };
  if (r.status == "ok") {
    nlohmann::json samples = {{"time_us", r.time_us}};
    j["time_us"] = median(r.time_us);
    if (!r.algbw_GBps.empty()) {
      samples["algbw_GBps"] = r.algbw_GBps;
      j["algbw_GBps"] = median(r.algbw_GBps);
    }
    if (!r.busbw_GBps.empty()) {
      samples["busbw_GBps"] = r.busbw_GBps;
      j["busbw_GBps"] = median(r.busbw_GBps);
    }
    j["samples"] = samples;
    j["warmup_us"] = r.warmup_us;
  }
  if (r.busbw_factor > 0) j["busbw_factor"] = r.busbw_factor;
  if (!r.choice.is_null()) j["choice"] = r.choice;
  if (!r.transport.is_null()) j["transport"] = r.transport;
  nlohmann::json notes = nlohmann::json::array();
  for (const auto& n : r.notes) notes.push_back({{"id", n.id}, {"level", n.level}, {"text", n.text}});
  j["notes"] = notes;
  return j;
}

void RecordWriter::write_header(const nlohmann::json& header) const {
  if (!enabled()) return;
  nlohmann::json h = header;
  h["type"] = "header";
  append_json_line(path_, h);
}

void RecordWriter::write_start(const std::string& key) const {
  if (enabled()) append_json_line(path_, {{"type", "start"}, {"key", key}});
}

void RecordWriter::write(const BenchmarkRecord& record) const {
  if (enabled()) append_json_line(path_, to_json(record));
}

void RecordWriter::write_footer(const nlohmann::json& footer) const {
  if (!enabled()) return;
  nlohmann::json f = footer;
  f["type"] = "footer";
  append_json_line(path_, f);
}

}  // namespace fabricgate::bench
