// The typed records header against what benches really wrote: every header line of every
// committed records.jsonl reads into RecordsHeader and writes back to the same JSON, field by
// field, and holds no field the type does not know.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/records_file.hpp"
#include "core/records_header.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

std::vector<fs::path> committed_records() {
  std::vector<fs::path> out;
  for (const auto& e :
       fs::recursive_directory_iterator(fs::path(FABRICGATE_SOURCE_DIR) / "results")) {
    if (e.is_regular_file() && e.path().filename() == "records.jsonl") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(RecordsHeader, EveryCommittedHeaderReadsAndWritesBackTheSame) {
  const std::vector<fs::path> files = committed_records();
  ASSERT_GT(files.size(), 10u) << "committed records.jsonl files under results/";
  const nlohmann::json known = to_json(RecordsHeader{});
  std::size_t headers = 0;
  for (const fs::path& file : files) {
    nlohmann::json header = read_records_file(file).header;
    if (!header.is_object()) continue;
    ++headers;
    header.erase("type");
    const nlohmann::json back = to_json(read_records_header(header));
    for (const auto& [field, value] : header.items()) {
      EXPECT_TRUE(known.contains(field))
          << file << ": header field " << field << " has no place in RecordsHeader";
      EXPECT_EQ(back.value(field, nlohmann::json()), value) << file << ": field " << field;
    }
  }
  EXPECT_GT(headers, 10u);
}

TEST(RecordsHeader, MissingFieldsKeepTheDefaultsRunAssemblyUsedToApply) {
  const RecordsHeader h =
      read_records_header(nlohmann::json{{"nranks", 4}, {"node_facts", "not a list"}});
  EXPECT_EQ(h.nranks, 4);
  EXPECT_EQ(h.gpus_per_process, 1);
  EXPECT_EQ(h.capture_path, "none");
  EXPECT_EQ(h.nodes, 0);
  EXPECT_EQ(h.ranks, nlohmann::json::array());
  EXPECT_EQ(h.node_facts, nlohmann::json::array()) << "run.json's nodes is a list or empty";
}

TEST(RecordsHeader, AFieldOfTheWrongTypeIsRefused) {
  EXPECT_THROW(read_records_header(nlohmann::json{{"nranks", "four"}}), nlohmann::json::type_error);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
