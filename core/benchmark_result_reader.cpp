#include "core/benchmark_result.hpp"

#include <string>
#include <vector>

#include "core/benchmark_key.hpp"
#include "core/record_fields.hpp"

// The strict reader of one benchmark result (the writer is to_json in benchmark_result.cpp).
namespace fabricgate {

namespace {

ResultStatus parse_status(const JsonReader& r, const std::string& p) {
  const std::string s = r.string_at(p);
  if (s == "ok") return ResultStatus::ok;
  if (s == "skipped") return ResultStatus::skipped;
  if (s == "error") return ResultStatus::error;
  if (s == "wrong") return ResultStatus::wrong;
  r.fail(p, "one of ok|skipped|error|wrong, found \"" + s + "\"");
}

// Keys are not path components but end up in JUnit names, annotations and baseline files.
void check_key(const JsonReader& r, const std::string& p, const std::string& key) {
  if (const std::string problem = benchmark_key_problem(key); !problem.empty()) r.fail(p, problem);
}

void require_same_size(const JsonReader& r, const std::string& p, std::size_t n,
                       std::size_t expected) {
  if (n != expected && n != 0) {
    r.fail(p, "as many samples as samples/time_us (" + std::to_string(expected) + "), found " +
                  std::to_string(n));
  }
}

std::vector<Note> parse_notes(const RecordFields& f, const std::string& p) {
  const JsonReader& r = f.reader();
  std::vector<Note> out;
  if (!r.find(p)) return out;
  const json& notes = r.array_at(p);
  for (std::size_t i = 0; i < notes.size(); ++i) {
    const std::string np = p + "/" + std::to_string(i);
    Note n{r.string_at(np + "/id"), r.string_at(np + "/level"), f.optional_string(np + "/text")};
    if (n.level != "error" && n.level != "warn" && n.level != "note") {
      r.fail(np + "/level", "one of error|warn|note, found \"" + n.level + "\"");
    }
    out.push_back(std::move(n));
  }
  return out;
}

Choice parse_choice(const RecordFields& f, const std::string& p) {
  const JsonReader& r = f.reader();
  Choice c;
  c.algo = f.count_map(p + "/algo");
  c.proto = f.count_map(p + "/proto");
  c.channels = f.count_map(p + "/channels");
  c.warps = f.count_map(p + "/warps");
  c.funcs = f.count_map(p + "/funcs");
  if (r.find(p + "/events")) {
    c.events = r.integer_at(p + "/events");
    if (*c.events < 0) r.fail(p + "/events", "a count >= 0");
  }
  return c;
}

// The samples and their medians of a result `measured` (status ok) or carrying numbers anyway.
void parse_numbers(const RecordFields& f, const std::string& p, bool measured, BenchmarkResult& b) {
  const JsonReader& r = f.reader();
  b.samples.time_us = f.series(p + "/samples/time_us", true, measured);
  b.samples.algbw_GBps = f.series(p + "/samples/algbw_GBps", false, false);
  b.samples.busbw_GBps = f.series(p + "/samples/busbw_GBps", false, false);
  if (measured) {
    r.array_at(p + "/samples/time_us");
    if (b.samples.time_us.size() != static_cast<std::size_t>(b.repetitions)) {
      r.fail(p + "/samples/time_us", "one sample per repetition (" + std::to_string(b.repetitions) +
                                         "), found " + std::to_string(b.samples.time_us.size()));
    }
  }
  require_same_size(r, p + "/samples/algbw_GBps", b.samples.algbw_GBps.size(),
                    b.samples.time_us.size());
  require_same_size(r, p + "/samples/busbw_GBps", b.samples.busbw_GBps.size(),
                    b.samples.time_us.size());
  b.time_us = f.time_at(p + "/time_us", measured);
  b.algbw_GBps = r.find(p + "/algbw_GBps") ? f.rate_at(p + "/algbw_GBps") : 0.0;
  if (r.find(p + "/busbw_GBps") && !r.at(p + "/busbw_GBps").is_null()) {
    b.busbw_GBps = f.rate_at(p + "/busbw_GBps");
  }
  if (r.find(p + "/warmup_us")) b.warmup_us = f.time_at(p + "/warmup_us", false);
}

}  // namespace

BenchmarkResult parse_benchmark_result(const json& doc, const std::string& origin,
                                       const std::string& pointer,
                                       const PlausibilityLimits& limits) {
  const RecordFields f(doc, origin, limits);
  const JsonReader& r = f.reader();
  const std::string& p = pointer;
  r.object_at(p.empty() ? "" : p);
  BenchmarkResult b;
  b.key = r.string_at(p + "/key");
  check_key(r, p + "/key", b.key);
  b.family = r.string_at(p + "/family");
  b.backend = r.string_at(p + "/backend");
  b.op = r.string_at(p + "/op");
  if (r.find(p + "/params")) b.params = r.object_at(p + "/params");
  const long long bytes = r.integer_at(p + "/bytes");
  if (bytes < 0 || static_cast<unsigned long long>(bytes) > limits.max_bytes) {
    r.fail(p + "/bytes", "a size in bytes in [0, 2^50], found " + std::to_string(bytes));
  }
  b.bytes = static_cast<std::uint64_t>(bytes);
  b.nranks = f.int_in(p + "/nranks", 1, limits.max_ranks);
  b.gpus_per_process =
      r.find(p + "/gpus_per_process") ? f.int_in(p + "/gpus_per_process", 0, 64) : 1;
  // A key that says 16 bytes on an 8-byte record would be gated as another benchmark.
  if (const std::string mismatch =
          key_record_mismatch(b.key, {b.family, b.bytes, b.nranks, b.gpus_per_process});
      !mismatch.empty())
    r.fail(p + "/key", mismatch);
  b.status = parse_status(r, p + "/status");
  b.message = f.optional_string(p + "/message");
  b.notes = parse_notes(f, p + "/notes");
  if (r.find(p + "/choice")) b.choice = parse_choice(f, p + "/choice");
  if (r.find(p + "/transport")) {
    b.transport = TransportSeen{f.optional_string(p + "/transport/network"),
                                f.string_list(p + "/transport/transports")};
  }
  // Only ok results must carry numbers (the bench writes none for skipped/error/wrong); numbers
  // that are present are validated whatever the status.
  const bool measured = b.status == ResultStatus::ok;
  const bool has_numbers = r.find(p + "/samples") || r.find(p + "/time_us");
  // The bench writes the planned repetitions and iterations for every status: keep them.
  if (measured || has_numbers || r.find(p + "/repetitions")) {
    b.repetitions = f.int_in(p + "/repetitions", measured ? 1 : 0, 1000000);
  }
  b.iterations = r.find(p + "/iterations") ? f.int_in(p + "/iterations", 0, 1000000000) : 0;
  if (r.find(p + "/busbw_factor")) b.busbw_factor = r.non_negative_at(p + "/busbw_factor");
  if (r.find(p + "/wrong_elements")) {
    b.wrong_elements = r.integer_at(p + "/wrong_elements");
    if (b.wrong_elements < 0) r.fail(p + "/wrong_elements", "a count >= 0");
  }
  if (measured || has_numbers) parse_numbers(f, p, measured, b);
  if (r.find(p + "/ranks")) b.ranks = parse_rank_timings(r, p + "/ranks", b.nranks);
  return b;
}

}  // namespace fabricgate
