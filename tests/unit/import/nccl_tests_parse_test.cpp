// nccl-tests readers on real outputs committed under results/ (2x H200, nccl-tests 2.19.6) and on
// edge cases in tests/data/import/ (tests/data/import/README.md says how each was made).
#include <gtest/gtest.h>

#include "core/collective_facts.hpp"
#include "core/errors.hpp"
#include "harness/import/imported_nccl_run.hpp"
#include "harness/import/nccl_tests_json.hpp"
#include "harness/import/nccl_tests_keys.hpp"
#include "harness/import/nccl_tests_text.hpp"
#include "harness/import/source_text.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::import {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

const std::string kResults = std::string(FABRICGATE_SOURCE_DIR) + "/results/h200-sxm-x2-nv18/";
const std::string kData = std::string(FABRICGATE_SOURCE_DIR) + "/tests/data/import/";

NcclTestsOutput text_file(const std::string& path) {
  return parse_nccl_tests_text(read_source_file(path), path);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

ImportContext context() {
  return ImportContext{"h200-sxm-x2-nv18", "2026-12-01T09:00:00Z", "20261201T090000Z", "test"};
}

TEST(import_NcclTestsText, ReadsTheCommittedTwoRankAllReduceTable) {
  const NcclTestsOutput o = text_file(kResults + "reference/ref-all_reduce.txt");
  EXPECT_EQ(o.tool_version, "2.19.6");
  EXPECT_EQ(o.nccl_version, "2.28.3");
  EXPECT_EQ(o.program, "all_reduce_perf");
  EXPECT_EQ(o.nranks, 2);
  EXPECT_EQ(o.ngpus, 1);
  EXPECT_EQ(o.iters, 20);
  EXPECT_EQ(o.warmup_iters, 5);
  EXPECT_EQ(o.validation, 0);
  ASSERT_EQ(o.devices.size(), 2u);
  EXPECT_EQ(o.devices[1].pci_bus_id, "0000:00:07");
  EXPECT_EQ(o.devices[1].gpu_name, "NVIDIA H200");
  EXPECT_EQ(o.devices[0].pid, 2307);
  ASSERT_EQ(o.rows.size(), 4u);
  EXPECT_EQ(o.rows[0].bytes, 268435456u);
  EXPECT_EQ(o.rows[0].line, 12);
  ASSERT_TRUE(o.rows[3].out_of_place && o.rows[3].in_place);
  EXPECT_DOUBLE_EQ(o.rows[3].out_of_place->time_us, 49490.8);
  EXPECT_DOUBLE_EQ(o.rows[3].in_place->time_us, 49492.8);
  EXPECT_FALSE(o.rows[3].in_place->wrong.has_value());  // N/A: -c 0
  ASSERT_TRUE(o.average_busbw_ignored);
  EXPECT_DOUBLE_EQ(*o.average_busbw_ignored, 329.251);
}

TEST(import_NcclTestsText, InProcessTwoGpuTableIsGppTwo) {
  const NcclTestsOutput o = text_file(kResults + "reference/ref-all_reduce-8B-1proc.txt");
  EXPECT_EQ(o.ngpus, 2);
  EXPECT_EQ(o.nranks, 2);
  const ImportResult r = build_nccl_tests_run({o}, {}, context());
  EXPECT_EQ(r.run["launch"]["gpus_per_process"], 2);
  EXPECT_EQ(r.run["benchmarks"][0]["key"],
            "coll/nccl/all_reduce/float32/sum/bytes:8/ranks:2/gpp:2/oop");
  EXPECT_EQ(r.run["benchmarks"][1]["key"],
            "coll/nccl/all_reduce/float32/sum/bytes:8/ranks:2/gpp:2/ip");
}

TEST(import_NcclTestsText, KeysFiguresAndParamsFollowTheBenchGrammar) {
  const NcclTestsOutput o = text_file(kResults + "same-call-reference/ref-all_reduce.txt");
  const ImportResult r = build_nccl_tests_run({o}, {}, context());
  const RunRecord run = parse_run(r.run, "imported");
  ASSERT_EQ(run.benchmarks.size(), 8u);
  const BenchmarkResult& b = run.benchmarks[6];
  EXPECT_EQ(b.key, "coll/nccl/all_reduce/float32/sum/bytes:17179869184/ranks:2/oop");
  EXPECT_EQ(b.repetitions, 1);
  ASSERT_EQ(b.samples.time_us.size(), 1u);
  EXPECT_DOUBLE_EQ(b.time_us, 49129.5);
  EXPECT_NEAR(b.algbw_GBps, 17179869184.0 / 49129.5 / 1e3, 1e-9);
  ASSERT_TRUE(b.busbw_GBps);
  EXPECT_NEAR(*b.busbw_GBps, b.algbw_GBps * 2 * 1 / 2, 1e-9);  // all_reduce: 2(n-1)/n = 1 at n = 2
  EXPECT_NEAR(*b.busbw_GBps, 349.69, 0.01);                    // what nccl-tests printed
  EXPECT_EQ(b.params["source_tool"], "nccl-tests");
  EXPECT_EQ(b.params["source_version"], "2.19.6");
  EXPECT_EQ(b.params["source_line"], 15);
  EXPECT_EQ(run.launch.nranks, 2);
  EXPECT_EQ(run.capture.nccl_version, "2.28.3");
  EXPECT_FALSE(run.fingerprint.present);  // the importing machine is not the measuring one
}

// The importer scales by the collectives' one list (core/collective_facts.hpp), which the bench
// measures with too: hand-computed factors for 8 ranks, and every row with a program is imported.
TEST(import_NcclTestsKeys, CollectivesComeFromTheCoreList) {
  EXPECT_DOUBLE_EQ(collective_for_program("all_reduce_perf", 8)->busbw_factor, 1.75);
  EXPECT_DOUBLE_EQ(collective_for_program("all_gather_perf", 8)->busbw_factor, 0.875);
  EXPECT_DOUBLE_EQ(collective_for_program("broadcast_perf", 8)->busbw_factor, 1.0);
  EXPECT_TRUE(collective_for_program("reduce_perf", 2)->rooted);
  EXPECT_TRUE(collective_for_program("reduce_perf", 2)->reduces);
  EXPECT_FALSE(collective_for_program("alltoallv_perf", 2));  // other per-peer counts than ours
  EXPECT_FALSE(collective_for_program("hypercube_perf", 2));
  EXPECT_FALSE(collective_for_program("all_reduce", 2));
  std::size_t imported = 0;
  for (const CollectiveFacts& c : kCollectives) {
    if (c.nccl_tests_program.empty()) continue;
    const auto shape = collective_for_program(std::string(c.nccl_tests_program), 4);
    ASSERT_TRUE(shape) << c.nccl_tests_program;
    EXPECT_EQ(shape->op, c.name);
    EXPECT_EQ(shape->busbw_factor, c.busbw_factor(4)) << c.name;
    EXPECT_NE(known_collective_programs().find(c.nccl_tests_program), std::string::npos);
    ++imported;
  }
  EXPECT_GT(imported, 0u);
}

// fabricgate computes algbw and busbw from bytes and time with its own factors; on every committed
// two-rank reference table they must agree with what nccl-tests printed (to its rounding).
TEST(import_NcclTestsText, BusbwMatchesWhatNcclTestsPrintedForEveryCollective) {
  for (const char* op : {"all_gather", "alltoall", "broadcast", "reduce", "reduce_scatter",
                         "sendrecv", "all_reduce"}) {
    const NcclTestsOutput o = text_file(kResults + "reference/ref-" + std::string(op) + ".txt");
    const RunRecord run = parse_run(build_nccl_tests_run({o}, {}, context()).run, "imported");
    ASSERT_EQ(run.benchmarks.size(), 2 * o.rows.size()) << op;
    for (std::size_t i = 0; i < o.rows.size(); ++i) {
      for (const bool ip : {false, true}) {
        const NcclTestsFigures& printed = ip ? *o.rows[i].in_place : *o.rows[i].out_of_place;
        const BenchmarkResult& b = run.benchmarks[2 * i + (ip ? 1 : 0)];
        ASSERT_TRUE(b.busbw_GBps);
        EXPECT_NEAR(*b.busbw_GBps, printed.busbw_GBps, 0.006 + 1e-4 * printed.busbw_GBps) << b.key;
        EXPECT_NEAR(b.algbw_GBps, printed.algbw_GBps, 0.006 + 1e-4 * printed.algbw_GBps) << b.key;
      }
    }
  }
}

TEST(import_NcclTestsText, WrongElementsAreWrongResults) {
  const ImportResult r =
      build_nccl_tests_run({text_file(kData + "nccl-tests-wrong-results.txt")}, {}, context());
  const RunRecord run = parse_run(r.run, "imported");
  ASSERT_EQ(run.benchmarks.size(), 2u);
  EXPECT_EQ(run.benchmarks[0].status, ResultStatus::ok);
  EXPECT_EQ(run.benchmarks[1].status, ResultStatus::wrong);
  EXPECT_EQ(run.benchmarks[1].wrong_elements, 3);
  EXPECT_EQ(run.benchmarks[1].key, "coll/nccl/all_gather/float32/bytes:4294967296/ranks:2/ip");
}

TEST(import_NcclTestsText, InPlaceOnlyRowsGiveInPlaceKeys) {
  const ImportResult r =
      build_nccl_tests_run({text_file(kData + "nccl-tests-in-place-only.txt")}, {}, context());
  ASSERT_EQ(r.run["benchmarks"].size(), 4u);
  for (const auto& b : r.run["benchmarks"])
    EXPECT_TRUE(b["key"].get<std::string>().ends_with("/ip")) << b["key"];
}

TEST(import_NcclTestsText, MalformedFilesNameTheLine) {
  EXPECT_NE(error_of([] {
              text_file(kData + "nccl-tests-truncated.txt");
            }).find("nccl-tests-truncated.txt: line 13: \"# Collective test concluded"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              text_file(kData + "nccl-tests-wrong-column-count.txt");
            }).find("line 14: 13 columns"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              text_file(kData + "nccl-tests-two-outputs.txt");
            }).find("line 22: one nccl-tests output per file"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              text_file(kData + "nccl-tests-no-version-header.txt");
            }).find("starting with \"# nccl-tests version\""),
            std::string::npos);
  const std::string garbage = "# nccl-tests version 2.19.6\n\x01\x1b[31mrm -rf\n";
  const std::string e = error_of([&] { parse_nccl_tests_text(garbage, "g.txt"); });
  EXPECT_NE(e.find("g.txt: line 2:"), std::string::npos) << e;
  EXPECT_EQ(e.find('\x1b'), std::string::npos) << "control characters are not echoed";
}

TEST(import_NcclTestsText, JobOutputAroundTheToolsIsIgnoredButNotInsideTheTable) {
  const std::string table = read_source_file(kResults + "reference/ref-all_reduce.txt");
  const NcclTestsOutput o =
      parse_nccl_tests_text("loading module nccl-tests\n" + table + "job done\n", "job.out");
  EXPECT_EQ(o.rows.size(), 4u);
  std::string inside = table;
  inside.insert(inside.find("  1073741824"),
                "--------------------------------------------------\n");
  EXPECT_NE(error_of([&] {
              parse_nccl_tests_text(inside, "job.out");
            }).find("job.out: line 13: a result row"),
            std::string::npos);
}

TEST(import_NcclTestsText, OneRankIsRefusedAsP01) {
  const NcclTestsOutput o = text_file(kData + "nccl-tests-one-rank.txt");
  EXPECT_EQ(o.nranks, 1);
  EXPECT_NE(error_of([&] { build_nccl_tests_run({o}, {}, context()); }).find("P01: 1 rank"),
            std::string::npos);
}

TEST(import_NcclTestsText, LaunchesOfDifferentShapesAreNotMixed) {
  const NcclTestsOutput two = text_file(kResults + "reference/ref-all_reduce.txt");
  const NcclTestsOutput gpp = text_file(kResults + "reference/ref-all_reduce-8B-1proc.txt");
  EXPECT_NE(error_of([&] {
              build_nccl_tests_run({two, gpp}, {}, context());
            }).find("one launch shape"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              build_nccl_tests_run({two, two}, {}, context());
            }).find("each key once per run"),
            std::string::npos);
}

TEST(import_NcclTestsJson, ReadsTheMinusJFormat) {
  const std::string path = kData + "nccl-tests-2rank-handwritten.json";
  const std::string text = read_source_file(path);
  ASSERT_TRUE(looks_like_json(text));
  const NcclTestsOutput o = parse_nccl_tests_json(text, path);
  EXPECT_EQ(o.program, "all_reduce_perf");
  EXPECT_EQ(o.nccl_version, "2.28.3");
  EXPECT_EQ(o.nranks, 2);
  ASSERT_EQ(o.rows.size(), 2u);
  EXPECT_EQ(o.rows[1].root, -1);
  ASSERT_TRUE(o.rows[1].in_place && o.rows[1].in_place->wrong);
  EXPECT_EQ(*o.rows[1].in_place->wrong, 2);
  const RunRecord run = parse_run(build_nccl_tests_run({o}, {}, context()).run, "imported");
  EXPECT_EQ(run.benchmarks[3].status, ResultStatus::wrong);
  EXPECT_EQ(run.benchmarks[0].params["source_version"], "unrecorded (-J JSON v3)");
}

TEST(import_NcclTestsJson, CutOffFileIsAnErrorWithItsLine) {
  const std::string path = kData + "nccl-tests-json-truncated.json";
  const std::string e = error_of([&] { parse_nccl_tests_json(read_source_file(path), path); });
  EXPECT_NE(e.find("not valid JSON"), std::string::npos) << e;
  EXPECT_NE(e.find("line 1"), std::string::npos) << e;
}

// Real -J files from the one-GPU H200 machine (nccl-tests 2.19.6): read whole, then refused (P01).
TEST(import_NcclTestsJson, ReadsTheRealOneGpuFilesAndRefusesThemAsP01) {
  const std::string path = kData + "real-h200x1-nccl-tests-all_reduce-g1.json";
  const NcclTestsOutput o = parse_nccl_tests_json(read_source_file(path), path);
  EXPECT_EQ(o.program, "all_reduce_perf");
  EXPECT_EQ(o.nccl_version, "2.28.3");
  EXPECT_EQ(o.json_format_version, "3");
  EXPECT_EQ(o.nranks, 1);
  EXPECT_EQ(o.iters, 20);
  EXPECT_EQ(o.validation, 0);
  ASSERT_EQ(o.rows.size(), 14u);  // 8 B .. 512 MiB, factor 4
  EXPECT_EQ(o.rows.back().bytes, 536870912u);
  ASSERT_TRUE(o.rows[0].out_of_place);
  EXPECT_DOUBLE_EQ(o.rows[0].out_of_place->time_us, 8.28425);
  EXPECT_FALSE(o.rows[0].out_of_place->wrong);  // null: -c 0
  EXPECT_NE(error_of([&] { build_nccl_tests_run({o}, {}, context()); }).find("P01: 1 rank"),
            std::string::npos);

  const std::string ag = kData + "real-h200x1-nccl-tests-all_gather-g1.json";
  const NcclTestsOutput g = parse_nccl_tests_json(read_source_file(ag), ag);
  EXPECT_EQ(g.program, "all_gather_perf");
  EXPECT_EQ(g.validation, 1);
  ASSERT_EQ(g.rows.size(), 3u);  // 1, 8, 64 MiB
  ASSERT_TRUE(g.rows[0].in_place && g.rows[0].in_place->wrong);
  EXPECT_EQ(*g.rows[0].in_place->wrong, 0);

  const NcclTestsOutput t = text_file(
      kData + "real-h200x1-nccl-tests-all_gather-g1-J.txt");  // "# Writing JSON output" first
  EXPECT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.nranks, 1);
}

TEST(import_NcclTestsKeys, VersionCodes) {
  EXPECT_EQ(nccl_version_from_code(22803), "2.28.3");
  EXPECT_EQ(nccl_version_from_code(2708), "2.7.8");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::import
