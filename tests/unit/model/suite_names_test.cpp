// Suite names, the nearest-name rule, the total benchmark bound and canonical keys: each checked
// where a suite, a run record or a baseline is read, before anything is launched or gated.
#include <gtest/gtest.h>

#include "core/benchmark_key.hpp"
#include "core/errors.hpp"
#include "core/nearest_name.hpp"
#include "core/suite.hpp"
#include "core/suite_names.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

std::string suite_error(const json& entry) {
  const json doc = {{"benchmarks", json::array({entry})}};
  try {
    validate_suite_document(JsonReader(doc, "bad.json"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

json coll(json extra = json::object()) {
  json e = {{"family", "coll"}, {"backend", "mpi"}, {"sizes", {{"list", {8u}}}}};
  for (auto& [k, v] : extra.items()) e[k] = v;
  return e;
}

TEST(model_NearestName, FindsTyposCaseAndSeparators) {
  EXPECT_EQ(nearest_name("allreduce", kCollectiveOps), "all_reduce");
  EXPECT_EQ(nearest_name("All-Reduce", kCollectiveOps), "all_reduce");
  EXPECT_EQ(nearest_name("all_reudce", kCollectiveOps), "all_reduce");  // swapped letters
  EXPECT_EQ(nearest_name("allgather", kCollectiveOps), "all_gather");
  EXPECT_EQ(nearest_name("bcast", kCollectiveOps), std::nullopt);  // too far to guess
  EXPECT_EQ(nearest_name("double", kDataTypeNames), std::nullopt);
  EXPECT_EQ(nearest_name("flaot32", kDataTypeNames), "float32");
  EXPECT_EQ(nearest_name("ncl", kCollectiveBackends), "nccl");
  EXPECT_EQ(nearest_name("", kCollectiveBackends), std::nullopt);
  EXPECT_EQ(nearest_name(std::string(1000, 'a'), kCollectiveOps), std::nullopt);
  EXPECT_EQ(did_you_mean("rdam", kSuiteFamilies), " (did you mean \"rdma\"?)");
  EXPECT_EQ(did_you_mean("coll", kSuiteFamilies), "");  // exact: no suggestion
  const std::vector<std::string> formats{"markdown", "junit", "json"};
  EXPECT_EQ(nearest_name("markdwon", formats), "markdown");
}

TEST(model_SuiteNames, EveryNameFieldNamesEntryFieldListAndNearest) {
  const std::string op = suite_error(coll({{"ops", {"all_reduce", "allreduce"}}}));
  EXPECT_NE(op.find("bad.json: field /benchmarks/0/ops/1"), std::string::npos) << op;
  EXPECT_NE(op.find("all_gather"), std::string::npos) << op;  // the valid list
  EXPECT_NE(op.find("did you mean \"all_reduce\"?"), std::string::npos) << op;

  struct Case {
    json entry;
    const char* field;
    const char* nearest;  // "" when none is close
  };
  const std::vector<Case> cases{
      {{{"family", "colls"}}, "/benchmarks/0/family", "coll"},
      {{{"family", "nccl"}}, "/benchmarks/0/family", ""},
      {coll({{"backend", "NCCL"}}), "/benchmarks/0/backend", "nccl"},
      {coll({{"dtypes", {"fp32"}}}), "/benchmarks/0/dtypes/0", ""},
      {coll({{"dtypes", {"bfloat61"}}}), "/benchmarks/0/dtypes/0", "bfloat16"},
      {coll({{"redops", {"sum", "mx"}}}), "/benchmarks/0/redops/1", "max"},
      {coll({{"placements", {"inplace"}}}), "/benchmarks/0/placements/0", ""},
      {coll({{"memory", "devcie"}}), "/benchmarks/0/memory", "device"},
      {{{"family", "rdma"}, {"backend", "libfabrc"}, {"sizes", {{"list", {8u}}}}},
       "/benchmarks/0/backend",
       "libfabric"},
      {{{"family", "rdma"},
        {"backend", "verbs"},
        {"ops", {"pingpnog"}},
        {"sizes", {{"list", {8u}}}}},
       "/benchmarks/0/ops/0",
       "pingpong"},
      {{{"family", "p2p"}, {"engines", {"copy_engine"}}, {"sizes", {{"list", {8u}}}}},
       "/benchmarks/0/engines/0",
       ""},
      {{{"family", "p2p"}, {"modes", {"uni", "bii"}}, {"sizes", {{"list", {8u}}}}},
       "/benchmarks/0/modes/1",
       "bi"},
      {{{"family", "devcopy"}, {"memory", {"pinnned"}}, {"sizes", {{"list", {8u}}}}},
       "/benchmarks/0/memory/0",
       "pinned"},
      {{{"family", "hostcopy"}, {"ops", {"memcopy"}}, {"sizes", {{"list", {8u}}}}},
       "/benchmarks/0/ops/0",
       "memcpy"},
      {{{"family", "nodepairs"}, {"backend", "mpii"}, {"sizes", {{"list", {8u}}}}},
       "/benchmarks/0/backend",
       "mpi"},
  };
  for (const Case& c : cases) {
    const std::string e = suite_error(c.entry);
    EXPECT_NE(e.find(std::string("field ") + c.field), std::string::npos) << c.entry << " " << e;
    if (*c.nearest) {
      EXPECT_NE(e.find(std::string("did you mean \"") + c.nearest + "\"?"), std::string::npos) << e;
    } else {
      EXPECT_EQ(e.find("did you mean"), std::string::npos) << e;
    }
  }
  // A backend the family needs is required; sizes are required for every family.
  EXPECT_NE(
      suite_error({{"family", "coll"}, {"sizes", {{"list", {8u}}}}}).find("/benchmarks/0/backend"),
      std::string::npos);
  EXPECT_NE(suite_error({{"family", "coll"}, {"backend", "mpi"}}).find("/benchmarks/0/sizes"),
            std::string::npos);
  EXPECT_EQ(suite_error(coll({{"ops", {"all_reduce", "sendrecv"}}, {"memory", "device"}})), "");
}

TEST(model_SuiteNames, TotalBenchmarksAreBoundedBeforeLaunch) {
  // 10 ops x 5 redops x 10 dtypes x 2 placements x 1000 sizes = 10^6 from one short entry.
  json sweep = coll({{"dtypes",
                      {"int8", "uint8", "int32", "uint32", "int64", "uint64", "float16", "bfloat16",
                       "float32", "float64"}},
                     {"redops", {"sum", "prod", "min", "max", "avg"}},
                     {"placements", {"oop", "ip"}}});
  sweep["sizes"] = {{"min", 1u}, {"max", "1G"}, {"factor", 1.021}};
  const std::string e = suite_error(sweep);
  EXPECT_NE(e.find("field /benchmarks"), std::string::npos) << e;
  EXPECT_NE(e.find("at most 50000 benchmarks"), std::string::npos) << e;
  EXPECT_NE(e.find("/benchmarks/0"), std::string::npos) << e;

  // Many small entries add up: 20 x (10 ops x 4000 sizes).
  json list = json::array();
  for (int i = 0; i < 4000; ++i) list.push_back(8u + static_cast<unsigned>(i));
  json many = {{"benchmarks", json::array()}};
  for (int i = 0; i < 20; ++i) many["benchmarks"].push_back(coll({{"sizes", {{"list", list}}}}));
  EXPECT_THROW(validate_suite_document(JsonReader(many, "many.json")), InputError);

  // Counts: defaults of each family, and lists that multiply.
  const json one = {{"benchmarks", json::array({coll()})}};
  EXPECT_EQ(entry_benchmark_count(JsonReader(one, "s"), "/benchmarks/0"), kCollectiveOps.size());
  const json rdma = {{"x",
                      {{"family", "rdma"},
                       {"backend", "libfabric"},
                       {"providers", {"tcp", "shm"}},
                       {"sizes", {{"list", {8u, 16u, 32u}}}}}}};
  EXPECT_EQ(entry_benchmark_count(JsonReader(rdma, "s"), "/x"), 3u * 2u * kRdmaOps.size());
}

TEST(model_CanonicalKey, OneSpellingPerBenchmark) {
  EXPECT_EQ(benchmark_key_problem("coll/mpi/all_reduce/float32/sum/bytes:8/ranks:2/oop"), "");
  EXPECT_EQ(benchmark_key_problem("p2p/ce/latency/src:0/dst:1/bytes:0"), "");
  EXPECT_EQ(benchmark_key_problem("pairs/nccl/sendrecv/bytes:65536/nodes:vm-node0+vm-node1"), "");
  for (const char* bad :
       {"coll/mpi/all_reduce/bytes:08/ranks:2", "coll/mpi/all_reduce/bytes:8/ranks:02",
        "coll/mpi/x/bytes:00", "coll/mpi/x/bytes:8B", "coll/mpi/x/bytes:+8", "coll/mpi/x/bytes:8.0",
        "coll/mpi/x/bytes:0x10", "coll/mpi/x/bytes:8K", "coll/mpi/x/Bytes:8", "coll/mpi/x/BYTES:8",
        "coll/mpi/x/bytes:8/bytes:8", "coll/mpi/x/ranks:2/ranks:3",
        "coll/mpi/x/bytes:", "coll/x/:8", "coll/mpi/x/gpp:002", "p2p/ce/latency/src:00/dst:1",
        "coll/mpi/x/bytes:99999999999999999999"}) {
    EXPECT_NE(benchmark_key_problem(bad), "") << bad;
  }
  EXPECT_NE(benchmark_key_problem("coll/mpi/x/bytes:08").find("\"bytes:8\""), std::string::npos);
}

TEST(model_CanonicalKey, KeyMustAgreeWithItsRecord) {
  const std::string k = "coll/mpi/all_reduce/float32/sum/bytes:16/ranks:2/gpp:2/oop";
  EXPECT_EQ(key_record_mismatch(k, {"coll", 16, 2, 2}), "");
  const std::string bytes = key_record_mismatch(k, {"coll", 8, 2, 2});
  EXPECT_NE(bytes.find("bytes:16 matches the record's bytes (8)"), std::string::npos) << bytes;
  EXPECT_NE(key_record_mismatch(k, {"coll", 16, 4, 2}).find("nranks (4)"), std::string::npos);
  EXPECT_NE(key_record_mismatch(k, {"coll", 16, 2, 1}).find("gpus_per_process"), std::string::npos);
  EXPECT_NE(key_record_mismatch(k, {"p2p", 16, 2, 2}).find("family"), std::string::npos);
  EXPECT_EQ(key_record_mismatch("pairs/mpi/sendrecv/bytes:8/round:0", {"nodepairs", 8, 4, 1}), "");
  EXPECT_EQ(key_record_mismatch("p2p/ce/local/gpu:0/bytes:8", {"p2p", 8, 1, 1}), "");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
