// The record contract (docs/DESIGN.md): what the bench writes is what the harness reads. The
// bench's own measurement loop and RecordWriter write records.jsonl; the harness's one reader
// (read_records_file, load_run) reads it back, field by field. Every record the bench wrote into
// the committed results/ re-serialises to the same JSON, and every committed key survives
// text -> parts -> text.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "core/errors.hpp"
#include "core/key_parts.hpp"
#include "core/records_file.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "measurement_fixture.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

const fs::path kSource = FABRICGATE_SOURCE_DIR;

class SteadyOp : public MeasuredOp {
 public:
  double run_batch(int count) override { return 0.001 * count; }  // 1 ms per operation
  std::int64_t count_wrong() override { return 0; }
};

// The parsed result against the line the bench wrote, field by field.
void expect_same(const BenchmarkResult& b, const json& line) {
  EXPECT_EQ(b.key, line.at("key"));
  EXPECT_EQ(b.family, line.at("family"));
  EXPECT_EQ(b.backend, line.at("backend"));
  EXPECT_EQ(b.op, line.at("op"));
  EXPECT_EQ(b.params, line.at("params"));
  EXPECT_EQ(b.bytes, line.at("bytes").get<std::uint64_t>());
  EXPECT_EQ(b.nranks, line.at("nranks").get<int>());
  EXPECT_EQ(b.gpus_per_process, line.at("gpus_per_process").get<int>());
  EXPECT_EQ(status_name(b.status), line.at("status").get<std::string>());
  EXPECT_EQ(b.message, line.at("message"));
  EXPECT_EQ(b.repetitions, line.at("repetitions").get<int>());
  EXPECT_EQ(b.iterations, line.at("iterations").get<int>());
  EXPECT_EQ(b.wrong_elements, line.at("wrong_elements").get<long long>());
  if (b.status == ResultStatus::ok) {
    EXPECT_EQ(b.samples.time_us, line.at("samples").at("time_us").get<std::vector<double>>());
    EXPECT_EQ(b.time_us, line.at("time_us").get<double>());
    EXPECT_EQ(b.warmup_us, line.at("warmup_us").get<double>());
  }
  if (line.contains("algbw_GBps")) {
    EXPECT_EQ(b.algbw_GBps, line["algbw_GBps"].get<double>());
  }
  EXPECT_EQ(b.busbw_GBps.has_value(), line.contains("busbw_GBps"));
  if (b.busbw_GBps) {
    EXPECT_EQ(*b.busbw_GBps, line["busbw_GBps"].get<double>());
  }
  EXPECT_EQ(b.choice.has_value(), line.contains("choice"));
  ASSERT_EQ(b.notes.size(), line.at("notes").size());
  for (std::size_t i = 0; i < b.notes.size(); ++i) {
    EXPECT_EQ(b.notes[i].id, line["notes"][i]["id"]);
    EXPECT_EQ(b.notes[i].level, line["notes"][i]["level"]);
    EXPECT_EQ(b.notes[i].text, line["notes"][i]["text"]);
  }
  // And the one writer gives back exactly the object read.
  json again = to_json(b);
  again.erase("type");
  json written = line;
  written.erase("type");
  EXPECT_EQ(again, written) << b.key;
}

class RecordContract : public testing::MeasurementFixture {
 protected:
  // One measured and one skipped benchmark through the bench's measurement loop.
  void run_two_benchmarks() {
    BenchEnv env{.comm = comm_, .writer = writer_, .collective_backend = {}};
    RecordTemplate t;
    t.record.key = BenchmarkKey()
                       .add("family", "coll")
                       .add("backend", "mpi")
                       .add("op", "all_reduce")
                       .add("dtype", "float32")
                       .add("redop", "sum")
                       .tag("bytes", std::uint64_t{4096})
                       .tag("ranks", 1)
                       .add("placement", "oop")
                       .text();
    t.record.family = "coll";
    t.record.backend = "mpi";
    t.record.op = "all_reduce";
    t.record.params = {{"dtype", "float32"}};
    t.record.bytes = 4096;
    t.bytes_for_rate = 4096;
    t.busbw_factor = 1.0;
    t.finish = [](BenchmarkResult& r) {
      Choice c;
      c.events = 12;
      c.algo = {{"Ring", 12}};
      c.proto = {{"LL", 10}, {"Simple", 2}};
      c.channels = {{"2", 12}};
      c.funcs = {{"AllReduce", 12}};
      r.choice = c;
      r.notes.push_back({"P07", "note", "written by the test's finish hook"});
    };
    MeasurePlan plan;
    plan.repetitions = 3;
    plan.warmup_ops = 1;
    plan.fixed_ops_per_sample = 4;
    register_measurement(env, t, plan, [](std::string&) { return std::make_unique<SteadyOp>(); });
    RecordTemplate skipped = t;
    skipped.record.key = BenchmarkKey()
                             .add("family", "hostcopy")
                             .add("backend", "host")
                             .add("op", "memcpy")
                             .tag("bytes", std::uint64_t{64})
                             .tag("ranks", 1)
                             .text();
    skipped.record.family = "hostcopy";  // a record's fields agree with its key (canonical keys)
    skipped.record.backend = "host";
    skipped.record.op = "memcpy";
    skipped.record.params = json::object();
    skipped.record.bytes = 64;
    skipped.bytes_for_rate = 64;
    skipped.finish = nullptr;
    register_measurement(env, skipped, plan, [](std::string& why) -> std::unique_ptr<MeasuredOp> {
      why = "no such memory on this host";
      return nullptr;
    });
    run_registered();
  }
};

TEST_F(RecordContract, WhatTheBenchWritesIsWhatTheHarnessReads) {
  run_two_benchmarks();
  const RecordsFile records = read_records_file(dir_ / "records.jsonl");
  EXPECT_FALSE(records.truncated_tail);
  ASSERT_EQ(records.benchmarks.size(), 2u);
  const std::vector<json> written = lines();
  std::vector<json> benchmark_lines;
  for (const json& j : written) {
    if (j["type"] == "benchmark") benchmark_lines.push_back(j);
  }
  ASSERT_EQ(benchmark_lines.size(), 2u);

  // A crashed run's directory: results/<platform>/<run_id>/records.jsonl, read by load_run.
  const fs::path run_dir = dir_ / "cpu-test" / "run-1";
  fs::create_directories(run_dir);
  fs::copy_file(dir_ / "records.jsonl", run_dir / "records.jsonl");
  const RunRecord run = load_run(run_dir);
  ASSERT_EQ(run.benchmarks.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) expect_same(run.benchmarks[i], benchmark_lines[i]);

  const BenchmarkResult& measured = run.benchmarks[0];
  EXPECT_EQ(measured.status, ResultStatus::ok);
  EXPECT_EQ(measured.samples.time_us.size(), 3u);
  EXPECT_NEAR(measured.time_us, 1000.0, 1e-6);  // 1 ms per operation, as SteadyOp takes
  ASSERT_TRUE(measured.busbw_GBps.has_value());
  ASSERT_TRUE(measured.choice.has_value());
  EXPECT_EQ(measured.choice->events, 12);
  EXPECT_EQ(measured.choice->proto.at("LL"), 10);
  EXPECT_EQ(names_used(*measured.choice).proto, (std::set<std::string>{"LL", "Simple"}));
  EXPECT_EQ(run.benchmarks[1].status, ResultStatus::skipped);
  EXPECT_EQ(run.benchmarks[1].message, "no such memory on this host");
}

// records.jsonl's one rule: a last line without its newline is truncated (ignored, even when it
// parses); a complete line that does not parse, or of an unknown type, names file and line.
TEST_F(RecordContract, OneRuleForACutLastLine) {
  run_two_benchmarks();
  const fs::path file = dir_ / "records.jsonl";
  std::string text;
  {
    std::ifstream in(file);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::size_t last_newline = text.rfind('\n', text.size() - 2);
  const std::size_t lines_before =
      static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  // The last benchmark loses its newline: whole JSON, but the writer never finished the line.
  std::ofstream(file, std::ios::trunc) << text.substr(0, text.size() - 1);
  const RecordsFile cut = read_records_file(file);
  EXPECT_TRUE(cut.truncated_tail);
  EXPECT_EQ(cut.truncated_line, lines_before);
  ASSERT_EQ(cut.benchmarks.size(), 1u);
  EXPECT_EQ(cut.benchmark_lines, std::vector<std::size_t>{2});  // start, benchmark, start, (cut)

  std::ofstream(file, std::ios::trunc)
      << text.substr(0, last_newline + 1) << "{\"type\": \"benchmark\", \"key\": \n";
  try {
    read_records_file(file);
    ADD_FAILURE() << "a complete corrupt line was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("records.jsonl line " + std::to_string(lines_before)),
              std::string::npos)
        << e.what();
  }
  std::ofstream(file, std::ios::trunc)
      << text.substr(0, last_newline + 1) << "{\"type\": \"trailer\"}\n";
  EXPECT_THROW(read_records_file(file), InputError);
}

std::vector<fs::path> committed(const std::string& name) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(kSource / "results")) {
    if (e.is_regular_file() && e.path().filename() == name) out.push_back(e.path());
  }
  return out;
}

// Every record the bench wrote into the committed results, for every family: read, then written
// again, it is the same JSON.
TEST(RecordContractCommitted, EveryCommittedRecordRoundTrips) {
  std::set<std::string> families;
  std::size_t records = 0;
  for (const fs::path& file : committed("records.jsonl")) {
    const RecordsFile f = read_records_file(file);
    for (std::size_t i = 0; i < f.benchmarks.size(); ++i) {
      const std::string origin = records_line_origin(file, f.benchmark_lines[i]);
      const BenchmarkResult b = parse_benchmark_result(f.benchmarks[i], origin, "");
      expect_same(b, f.benchmarks[i]);
      families.insert(b.family);
      ++records;
    }
  }
  EXPECT_GT(records, 1000u);
  EXPECT_EQ(families, (std::set<std::string>{"coll", "hostcopy", "nodepairs", "p2p", "rdma"}));
}

void expect_key_identity(const std::string& key, std::uint64_t bytes, int nranks,
                         const std::string& where) {
  const BenchmarkKey parts = BenchmarkKey::parse(key);
  EXPECT_EQ(parts.text(), key) << where;
  // The parts readers ask for are the record's own numbers.
  if (const auto b = parts.tagged_number("bytes")) {
    EXPECT_EQ(*b, bytes) << where << ": " << key;
  }
  if (const auto r = parts.tagged_number("ranks")) {
    EXPECT_EQ(*r, static_cast<std::uint64_t>(nranks)) << where << ": " << key;
  }
}

TEST(RecordContractCommitted, EveryCommittedKeySurvivesTextToPartsToText) {
  std::size_t keys = 0;
  for (const fs::path& file : committed("run.json")) {
    const RunRecord run = load_run(file);
    for (const BenchmarkResult& b : run.benchmarks) {
      expect_key_identity(b.key, b.bytes, b.nranks, file.string());
      ++keys;
    }
  }
  for (const auto& e : fs::directory_iterator(kSource / "baselines")) {
    if (e.path().extension() != ".json") continue;
    const Baseline baseline = load_baseline(e.path());
    for (const auto& [key, entry] : baseline.entries) {
      expect_key_identity(key, entry.bytes, entry.nranks, e.path().string());
      ++keys;
    }
  }
  EXPECT_GT(keys, 1000u);
}

TEST(BenchmarkKeyParts, BuilderNamesEveryPartAndReadersFindTags) {
  BenchmarkKey k;
  k.add("family", "p2p").add("backend", "ce").add("direction", "write").add("mode", "uni");
  k.tag("src", 0).tag("dst", std::string("all")).tag("bytes", std::uint64_t{1} << 30);
  EXPECT_EQ(k.text(), "p2p/ce/write/uni/src:0/dst:all/bytes:1073741824");
  EXPECT_EQ(k.parts()[2].name, "direction");
  const BenchmarkKey parsed = BenchmarkKey::parse(k.text());
  EXPECT_EQ(parsed.parts()[0].name, "family");
  EXPECT_EQ(parsed.parts()[1].name, "backend");
  EXPECT_EQ(parsed.tagged("dst"), "all");
  EXPECT_EQ(parsed.tagged_number("bytes"), std::uint64_t{1} << 30);
  EXPECT_FALSE(parsed.tagged_number("dst").has_value());
  EXPECT_FALSE(parsed.tagged("ranks").has_value());
  EXPECT_EQ(parsed.without({"src", "dst"}).text(), "p2p/ce/write/uni/bytes:1073741824");
  EXPECT_EQ(parsed.drop_front(2).without({"bytes"}).text(), "write/uni/src:0/dst:all");
  EXPECT_EQ(BenchmarkKey::parse("coll/nccl/all_reduce/float32/sum/bytes:8/ranks:2/oop")
                .with("ranks", "*")
                .text(),
            "coll/nccl/all_reduce/float32/sum/bytes:8/ranks:*/oop");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
