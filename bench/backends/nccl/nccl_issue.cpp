#include "bench/backends/nccl/nccl_issue.hpp"

namespace fabricgate::bench {

namespace {

// Keeps the most telling result of several calls: an error beats ncclInProgress beats success.
class Results {
 public:
  void add(ncclResult_t rc) {
    if (rc == ncclSuccess || is_error(result_)) return;
    result_ = rc;
  }
  ncclResult_t get() const { return result_; }

 private:
  static bool is_error(ncclResult_t rc) { return rc != ncclSuccess && rc != ncclInProgress; }
  ncclResult_t result_ = ncclSuccess;
};

// Element `index` of blocks of `block` bytes (or, with block = element size, element `index`).
const char* at(const void* base, std::size_t block, std::size_t index) {
  return static_cast<const char*>(base) + index * block;
}
char* at(void* base, std::size_t block, std::size_t index) {
  return static_cast<char*>(base) + index * block;
}
const char* at(const void* base, std::size_t block, int index) {
  return at(base, block, static_cast<std::size_t>(index));
}
char* at(void* base, std::size_t block, int index) {
  return at(base, block, static_cast<std::size_t>(index));
}

}  // namespace

ncclResult_t issue_collective(const IssueArgs& a) {
  const CollectiveCall& c = a.call;
  const std::size_t count = c.counts.call_count;
  const ncclDataType_t type = *nccl_type(c.dtype);
  const ncclRedOp_t op = nccl_op(c.redop);
  const std::size_t block = count * a.elem;
  Results r;
  switch (c.def->kind) {
    case CollectiveKind::all_reduce:
      return ncclAllReduce(a.send, a.recv, count, type, op, a.comm, a.stream);
    case CollectiveKind::all_gather:
      return ncclAllGather(a.send, a.recv, count, type, a.comm, a.stream);
    case CollectiveKind::reduce_scatter:
      return ncclReduceScatter(a.send, a.recv, count, type, op, a.comm, a.stream);
    case CollectiveKind::broadcast:
      return ncclBroadcast(a.send, a.recv, count, type, c.root, a.comm, a.stream);
    case CollectiveKind::reduce:
      return ncclReduce(a.send, a.recv, count, type, op, c.root, a.comm, a.stream);
    case CollectiveKind::alltoall:
      r.add(ncclGroupStart());
      for (int peer = 0; peer < a.nranks; ++peer) {
        r.add(ncclSend(at(a.send, block, peer), count, type, peer, a.comm, a.stream));
        r.add(ncclRecv(at(a.recv, block, peer), count, type, peer, a.comm, a.stream));
      }
      r.add(ncclGroupEnd());
      return r.get();
    case CollectiveKind::alltoallv:  // grouped sends and receives of each peer's own block size
      r.add(ncclGroupStart());
      for (int peer = 0; peer < a.nranks; ++peer) {
        const auto p = static_cast<std::size_t>(peer);
        const std::size_t to = a.blocks->send_counts[p];
        const std::size_t from = a.blocks->recv_counts[p];
        if (to)
          r.add(ncclSend(at(a.send, a.elem, a.blocks->send_offsets[p]), to, type, peer, a.comm,
                         a.stream));
        if (from)
          r.add(ncclRecv(at(a.recv, a.elem, a.blocks->recv_offsets[p]), from, type, peer, a.comm,
                         a.stream));
      }
      r.add(ncclGroupEnd());
      return r.get();
    case CollectiveKind::sendrecv:
      r.add(ncclGroupStart());
      r.add(ncclSend(a.send, count, type, (a.rank + 1) % a.nranks, a.comm, a.stream));
      r.add(ncclRecv(a.recv, count, type, (a.rank + a.nranks - 1) % a.nranks, a.comm, a.stream));
      r.add(ncclGroupEnd());
      return r.get();
    case CollectiveKind::gather:  // the root receives block p from every rank p (itself included)
      r.add(ncclGroupStart());
      if (a.rank == c.root) {
        for (int peer = 0; peer < a.nranks; ++peer)
          r.add(ncclRecv(at(a.recv, block, peer), count, type, peer, a.comm, a.stream));
      }
      r.add(ncclSend(a.send, count, type, c.root, a.comm, a.stream));
      r.add(ncclGroupEnd());
      return r.get();
    case CollectiveKind::scatter:  // the root sends block p to every rank p (itself included)
      r.add(ncclGroupStart());
      if (a.rank == c.root) {
        for (int peer = 0; peer < a.nranks; ++peer)
          r.add(ncclSend(at(a.send, block, peer), count, type, peer, a.comm, a.stream));
      }
      r.add(ncclRecv(a.recv, count, type, c.root, a.comm, a.stream));
      r.add(ncclGroupEnd());
      return r.get();
  }
  return ncclInvalidArgument;
}

}  // namespace fabricgate::bench
