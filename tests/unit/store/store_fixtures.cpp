#include <gtest/gtest.h>

#include "store_fixtures.hpp"

#include <cstdio>

namespace fabricgate::testing {

store::StoredRun synthetic_run(const std::string& platform, std::size_t index, std::size_t keys,
                               const std::string& writer) {
  store::StoredRun r;
  r.platform = platform;
  char id[64];
  std::snprintf(id, sizeof id, "20260101T%02zu%02zu00Z-%s-%zu", (index / 60) % 24, index % 60,
                writer.c_str(), index);
  r.run_id = id;
  char started[32];
  std::snprintf(started, sizeof started, "2026-01-01T%02zu:%02zu:00Z", (index / 60) % 24,
                index % 60);
  r.started_at = started;
  r.suite = "quick";
  r.scenario = "default";
  r.facts = {{"versions", {{"nccl", "2.28.3"}}}};
  r.fingerprint_digest = store::fingerprint_digest(r.facts);
  r.env = {{"NCCL_PROTO", "Simple"}};
  for (std::size_t k = 0; k < keys; ++k) {
    store::StoredMedian m;
    m.key = "coll/nccl/all_reduce/float32/sum/bytes:" + std::to_string(1024 << (k % 16)) +
            "/ranks:" + std::to_string(k) + "/oop";
    m.bytes = 1024u << (k % 16);
    m.time_us = 10 + static_cast<double>(k);
    m.algbw_GBps = 100 + static_cast<double>(index);
    m.busbw_GBps =
        k % 2 ? std::optional<double>() : std::optional<double>(150 + static_cast<double>(index));
    m.verdict = "PASS";
    r.medians.push_back(m);
  }
  return r;
}

::testing::AssertionResult holds_complete_runs(store::ResultsStore& s, const std::string& platform,
                                               std::size_t keys) {
  store::RunQuery q;
  q.platform = platform;
  for (const store::StoredRun& r : s.runs(q)) {
    if (r.medians.size() != keys) {
      return ::testing::AssertionFailure()
             << r.run_id << " has " << r.medians.size() << " medians, not " << keys;
    }
    const std::size_t index = std::stoul(r.run_id.substr(r.run_id.rfind('-') + 1));
    for (const store::StoredMedian& m : r.medians) {
      if (m.algbw_GBps != 100 + static_cast<double>(index)) {
        return ::testing::AssertionFailure()
               << r.run_id << " key " << m.key << " algbw " << m.algbw_GBps;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace fabricgate::testing
