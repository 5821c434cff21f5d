// fabricgate-rdma-pair: the libfabric backend between two processes bootstrapped over plain TCP
// instead of MPI, for the two-host test (one process per network namespace). Mirrors the engine's
// steps: create (collective) → fill → one operation → check → timed batch. Rank 0 prints one JSON
// line per (op, size).
//   fabricgate-rdma-pair RANK BOOTSTRAP_IP PORT PROVIDER DOMAIN BYTES[,BYTES...]
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/backends/libfabric/libfabric_backend.hpp"
#include "tcp_pair_communicator.hpp"

namespace fb = fabricgate::bench;

int main(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: %s RANK BOOTSTRAP_IP PORT PROVIDER DOMAIN BYTES[,BYTES...]\n",
                 argv[0]);
    return 2;
  }
  try {
    fb::testing::TcpPairCommunicator comm(std::atoi(argv[1]), argv[2], std::atoi(argv[3]), 30);
    std::stringstream sizes(argv[6]);
    for (std::string item; std::getline(sizes, item, ',');) {
      for (const auto op : {fb::TransferOp::write, fb::TransferOp::read, fb::TransferOp::send,
                            fb::TransferOp::pingpong}) {
        fb::LibfabricConfig cfg{argv[4], argv[5], op, std::stoull(item),
                                16,      false,   -1, std::chrono::seconds(20)};
        nlohmann::json line = {{"op", fb::to_string(op)}, {"bytes", cfg.bytes}};
        nlohmann::json chosen;
        std::string skip;
        std::string error;
        std::unique_ptr<fb::MeasuredOp> m;
        try {
          m = fb::make_libfabric_op(comm, cfg, chosen, skip);
        } catch (const std::exception& e) {
          error = e.what();
        }
        if (!comm.all_agree(m != nullptr)) {
          line["status"] = error.empty() ? "skipped" : "error";
          line["message"] = error.empty() ? skip : error;
        } else {
          m->prepare_data();
          m->run_batch(1);
          const std::int64_t wrong = comm.sum(m->count_wrong());
          const double seconds = comm.max(m->run_batch(20));
          const bool failed = !comm.all_agree(m->failure().empty());
          line["status"] = failed ? "error" : wrong > 0 ? "wrong" : "ok";
          line["message"] = m->failure();
          line["wrong_elements"] = wrong;
          line["time_us"] = seconds / 20 * 1e6;
          line["params"] = chosen;
        }
        if (comm.rank() == 0) std::printf("%s\n", line.dump().c_str());
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fabricgate-rdma-pair: %s\n", e.what());
    return 3;
  }
  return 0;
}
