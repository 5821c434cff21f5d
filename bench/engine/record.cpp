#include "bench/engine/record.hpp"

#include "core/json_file.hpp"

namespace fabricgate::bench {

void RecordWriter::write_header(const nlohmann::json& header) const {
  if (!enabled()) return;
  nlohmann::json h = header;
  h["type"] = "header";
  append_json_line(path_, h);
}

void RecordWriter::write_start(const std::string& key) const {
  if (enabled()) append_json_line(path_, {{"type", "start"}, {"key", key}});
}

void RecordWriter::write(const BenchmarkResult& record) const {
  if (!enabled()) return;
  BenchmarkResult summarised = record;
  summarise_samples(summarised);
  append_json_line(path_, to_json(summarised));
}

void RecordWriter::write_footer(const nlohmann::json& footer) const {
  if (!enabled()) return;
  nlohmann::json f = footer;
  f["type"] = "footer";
  append_json_line(path_, f);
}

}  // namespace fabricgate::bench
