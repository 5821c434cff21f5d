// Node-pair exchange over MPI (family "nodepairs"): MPI_Sendrecv of `bytes` with one peer, on host
// memory. Ranks without a peer in this round only meet the others at the batch's barrier.
#include <chrono>
#include <limits>
#include <new>
#include <vector>

#include "bench/backends/mpi/mpi_collectives.hpp"
#include "bench/engine/message_window.hpp"

namespace fabricgate::bench {

namespace {

class MpiPairExchange final : public MeasuredOp {
 public:
  MpiPairExchange(MpiCommunicator& comm, int peer, std::uint64_t bytes)
      : comm_(comm),
        peer_(peer),
        bytes_(bytes),
        send_(peer >= 0 ? bytes : 0),
        recv_(peer >= 0 ? bytes : 0) {}

  void prepare_data() override {
    if (peer_ < 0) return;
    fill_payload(send_.data(), bytes_, comm_.rank());
    fill_payload_complement(recv_.data(), bytes_, peer_);
  }

  double run_batch(int count) override {
    MPI_Barrier(comm_.world());  // every pair of the round starts together
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < count && peer_ >= 0 && error_.empty(); ++i) {
      const int rc = MPI_Sendrecv(send_.data(), static_cast<int>(bytes_), MPI_BYTE, peer_, 7,
                                  recv_.data(), static_cast<int>(bytes_), MPI_BYTE, peer_, 7,
                                  comm_.world(), MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS)
        error_ = "MPI_Sendrecv with rank " + std::to_string(peer_) + " failed (" +
                 std::to_string(rc) + ")";
    }
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(t1 - t0).count();
  }

  std::int64_t count_wrong() override {
    return peer_ < 0 ? 0 : count_wrong_payload(recv_.data(), bytes_, peer_);
  }
  std::string failure() const override { return error_; }

 private:
  MpiCommunicator& comm_;
  int peer_;
  std::uint64_t bytes_;
  std::vector<unsigned char> send_;
  std::vector<unsigned char> recv_;
  std::string error_;
};

}  // namespace

std::unique_ptr<MeasuredOp> MpiCollectiveBackend::create_pair_exchange(int peer,
                                                                       std::uint64_t bytes,
                                                                       std::string& skip_reason) {
  if (bytes > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    skip_reason = "MPI counts are int: at most 2 GiB - 1 per message";
    return nullptr;
  }
  try {
    return std::make_unique<MpiPairExchange>(comm_, peer, bytes);
  } catch (const std::bad_alloc&) {
    skip_reason = "does not fit in host memory (2 x " + std::to_string(bytes) + " bytes)";
    return nullptr;
  }
}

}  // namespace fabricgate::bench
