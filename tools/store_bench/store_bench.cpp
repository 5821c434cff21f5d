// Synthetic results stores for the store's speed figures (results/store-bench/README.md):
//   store_bench fill URL RUNS KEYS [PLATFORM]   record RUNS runs of KEYS keys each, one
//                                               transaction per run as `fabricgate run` does
//   store_bench record-cluster URL NODES GPUS   build one run of NODES x GPUS ranks (node facts,
//                                               one result per GPU with 20 samples) and time
//                                               stored_run_from + record, the part `run` adds
// Values: bandwidth 100 GB/s with 1 % deterministic noise and a 5 % step at run RUNS*3/4 in every
// 10th key, so `history --all` has change points to find. Not a test: run by hand.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "harness/store/results_store.hpp"

namespace fs = fabricgate::store;

namespace {

double noise(std::uint64_t a, std::uint64_t b) {
  std::uint64_t z = a * 0x9e3779b97f4a7c15ULL + b * 0xbf58476d1ce4e5b9ULL + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  const double u1 = (static_cast<double>(z >> 11) + 0.5) / 9007199254740992.0;
  const double u2 =
      (static_cast<double>((z * 0x2545F4914F6CDD1DULL) >> 11) + 0.5) / 9007199254740992.0;
  return std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

std::string key_name(std::size_t k) {
  static const char* ops[] = {"all_reduce", "all_gather", "reduce_scatter", "broadcast",
                              "alltoall"};
  return std::string("coll/nccl/") + ops[k % 5] +
         "/float32/sum/bytes:" + std::to_string(std::size_t{1024} << (k % 20)) +
         "/ranks:" + std::to_string(8 + k / 20) + "/oop";  // (k % 20, k / 20) is unique
}

int fill(const std::string& url, std::size_t runs, std::size_t keys, const std::string& platform) {
  auto store = fs::open_store(fs::parse_store_location(url, "argv"));
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < runs; ++i) {
    fs::StoredRun r;
    r.platform = platform;
    char id[64];
    std::snprintf(id, sizeof id, "2026%04zuT000000Z-quick-default", i);
    r.run_id = id;
    r.started_at = "2026-" + std::to_string(1000 + i) + "T00:00:00Z";  // sorts like the ids
    r.suite = "quick";
    r.scenario = "default";
    r.facts = {{"versions", {{"nccl", i < runs * 3 / 4 ? "2.28.3" : "2.28.9"}}}};
    r.fingerprint_digest = fs::fingerprint_digest(r.facts);
    r.medians.reserve(keys);
    for (std::size_t k = 0; k < keys; ++k) {
      const double step = (k % 10 == 0 && i >= runs * 3 / 4) ? 0.95 : 1.0;
      const double bw = 100 * step * (1 + 0.01 * noise(i, k));
      const std::uint64_t bytes = std::uint64_t{1024} << (k % 20);
      const double time_us =
          5 / step + static_cast<double>(bytes) / (bw * 1e3);  // latency + size / bandwidth
      r.medians.push_back({key_name(k), bytes, time_us, bw, bw * 1.75, "PASS"});
    }
    store->record(r);
    if ((i + 1) % 100 == 0) {
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "%zu runs recorded, %.1f s\n", i + 1, s);
    }
  }
  return 0;
}

int record_cluster(const std::string& url, int nodes, int gpus) {
  fabricgate::RunRecord run;
  run.platform = "h200-cluster-" + std::to_string(nodes) + "x" + std::to_string(gpus);
  run.run_id = "20270101T000000Z-cluster-default";
  run.started_at = "2027-01-01T00:00:00Z";
  run.suite = "cluster";
  run.scenario = "default";
  run.fingerprint.present = true;
  run.fingerprint.versions = {{"nccl", "2.28.9"}, {"driver", "580.95"}, {"cuda_driver", "13.0"}};
  run.fingerprint.identity = {{"gpu_model", "NVIDIA H200"}, {"gpu_count", gpus}};
  for (int n = 0; n < nodes; ++n) {
    fabricgate::NodeRecord node;
    node.name = "node" + std::to_string(n);
    node.hostname = node.name;
    node.rank_count = static_cast<std::size_t>(gpus);
    node.facts = {{"driver", "580.95"},
                  {"nccl", "2.28.9"},
                  {"gpu_count", std::to_string(gpus)},
                  {"nics", "mlx5_0,mlx5_1"}};
    run.nodes.push_back(std::move(node));
  }
  for (int rank = 0; rank < nodes * gpus; ++rank) {
    fabricgate::BenchmarkResult b;
    b.key = "p2p/nccl/sendrecv/float32/bytes:268435456/pair:" + std::to_string(rank) + "-" +
            std::to_string((rank + gpus) % (nodes * gpus));
    b.bytes = 268435456;
    b.nranks = 2;
    for (int s = 0; s < 20; ++s)
      b.samples.algbw_GBps.push_back(
          45 + noise(static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(s)));
    b.time_us = 5900;
    b.algbw_GBps = 45;
    run.benchmarks.push_back(std::move(b));
  }
  auto store = fs::open_store(fs::parse_store_location(url, "argv"));
  const auto start = std::chrono::steady_clock::now();
  store->record(fs::stored_run_from(run, nullptr));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("recorded one %d-node x %d-GPU run (%zu results, %zu nodes) into %s in %.3f s\n",
              nodes, gpus, run.benchmarks.size(), run.nodes.size(), store->display().c_str(), s);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "fill" && argc >= 5) {
      return fill(argv[2], std::stoul(argv[3]), std::stoul(argv[4]),
                  argc > 5 ? argv[5] : "bench-platform");
    }
    if (mode == "record-cluster" && argc == 5)
      return record_cluster(argv[2], std::stoi(argv[3]), std::stoi(argv[4]));
    std::fprintf(
        stderr,
        "usage: store_bench fill URL RUNS KEYS [PLATFORM] | record-cluster URL NODES GPUS\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "store_bench: %s\n", e.what());
    return 3;
  }
}
