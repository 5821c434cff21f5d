// Diagnostic probe (fabricgate's own code, kept beside the evidence): does the all_gather /
// reduce_scatter 4 GiB level belong to the buffer, the communicator, or the process/GPU state?
// Each process: C communicators x B buffer sets, each cell measured (5 warm-up, 5 samples x 20
// ops, CUDA events on rank's stream, max over ranks), with the SM clock and power read by NVML
// while the batch runs.
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>
#include <dlfcn.h>
#include <ctime>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#define CK(x) do { auto e_ = (x); if (e_ != 0) { fprintf(stderr, "%s:%d %s -> %d\n", __FILE__, __LINE__, #x, (int)e_); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)
static int rank_, nranks_;
// NVML looked up at run time (no header or stub needed to build): our own declarations.
using nvml_dev = void*;
static int (*nv_init)();
static int (*nv_by_bus)(const char*, nvml_dev*);
static int (*nv_clock)(nvml_dev, int, unsigned*);
static int (*nv_power)(nvml_dev, unsigned*);
static int (*nv_reasons)(nvml_dev, unsigned long long*);
static void load_nvml() {
  void* h = dlopen("libnvidia-ml.so.1", RTLD_NOW);
  if (!h) { fprintf(stderr, "no NVML\n"); MPI_Abort(MPI_COMM_WORLD, 1); }
  nv_init = (int (*)())dlsym(h, "nvmlInit_v2");
  nv_by_bus = (int (*)(const char*, nvml_dev*))dlsym(h, "nvmlDeviceGetHandleByPciBusId_v2");
  nv_clock = (int (*)(nvml_dev, int, unsigned*))dlsym(h, "nvmlDeviceGetClockInfo");
  nv_power = (int (*)(nvml_dev, unsigned*))dlsym(h, "nvmlDeviceGetPowerUsage");
  void* r = dlsym(h, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!r) r = dlsym(h, "nvmlDeviceGetCurrentClocksThrottleReasons");
  nv_reasons = (int (*)(nvml_dev, unsigned long long*))r;
}
enum { NV_CLOCK_SM = 1, NV_CLOCK_MEM = 2 };
struct Set { char* send; char* recv; std::string how; };
// Fills: zero (what a fresh cudaMalloc holds and what nccl-tests -c 0 moves), bytes (every byte
// rank+1), fgpat (fabricgate's pattern: 1 + (i + 3r) % 7 as float), urand (uniform [0,1) float).
__global__ void fill_kernel(float* p, size_t n, int kind, int rank) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    if (kind == 0) p[i] = 1.0f + float((i + 3 * (size_t)rank) % 7);
    else {
      unsigned long long z = i * 0x9E3779B97F4A7C15ull + (unsigned long long)rank * 0xBF58476D1CE4E5B9ull + 1;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; z ^= z >> 31;
      p[i] = float(z >> 40) / float(1 << 24);
    }
  }
}
static void fill(char* p, size_t bytes, const std::string& how) {
  if (how == "zero") { CK(cudaMemset(p, 0, bytes)); return; }
  if (how == "bytes") { CK(cudaMemset(p, rank_ + 1, bytes)); return; }
  if (how == "none") return;
  if (how == "h2d" || how == "h2dzero") {  // copy engine only, no kernel: host pattern (or zeros) in 64 MiB pieces
    static std::vector<char> host(size_t{64} << 20);
    for (size_t i = 0; i < host.size(); ++i) host[i] = how == "h2d" ? char(1 + (i + 3 * rank_) % 7) : 0;
    for (size_t off = 0; off < bytes; off += host.size())
      CK(cudaMemcpy(p + off, host.data(), std::min(host.size(), bytes - off), cudaMemcpyHostToDevice));
    return;
  }
  fill_kernel<<<1024, 512>>>((float*)p, bytes / 4, how == "fgpat" ? 0 : 1, rank_);
  CK(cudaGetLastError());
}
static double now() { return MPI_Wtime(); }
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks_);
  const int ncomms = argc > 1 ? atoi(argv[1]) : 2;
  const std::string sets_spec = argc > 2 ? argv[2] : "pair,pair,exact";
  const int passes = argc > 3 ? atoi(argv[3]) : 2;
  CK(cudaSetDevice(rank_));
  load_nvml(); nvml_dev nv = nullptr; char bus[32]; CK(cudaDeviceGetPCIBusId(bus, sizeof bus, rank_)); CK(nv_init()); CK(nv_by_bus(bus, &nv));
  if (argc > 4 && std::string(argv[4]) == "prekernel") {  // a non-NCCL kernel before the communicators
    float* tmp = nullptr; CK(cudaMalloc(&tmp, 64 << 20)); fill_kernel<<<1024, 512>>>(tmp, (64 << 20) / 4, 1, rank_);
    CK(cudaDeviceSynchronize()); CK(cudaFree(tmp));
  }
  std::vector<ncclComm_t> comms(ncomms);
  for (int c = 0; c < ncomms; ++c) {
    ncclUniqueId id; if (rank_ == 0) CK(ncclGetUniqueId(&id));
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    CK(ncclCommInitRank(&comms[c], nranks_, id, rank_));
  }
  const size_t big = size_t{4} << 30, part = big / nranks_;
  std::vector<Set> sets;
  size_t pos = 0;
  while (pos <= sets_spec.size()) {
    size_t end = sets_spec.find(',', pos); if (end == std::string::npos) end = sets_spec.size();
    std::string how = sets_spec.substr(pos, end - pos); pos = end + 1;
    std::string fillhow = "bytes";
    if (auto colon = how.find(':'); colon != std::string::npos) { fillhow = how.substr(colon + 1); how = how.substr(0, colon); }
    Set s{nullptr, nullptr, how + ":" + fillhow};
    if (how == "pair") { CK(cudaMalloc(&s.send, big)); CK(cudaMalloc(&s.recv, big)); }
    else if (how == "exact") { CK(cudaMalloc(&s.recv, big)); CK(cudaMalloc(&s.send, big)); }  // both 4 GiB, recv first
    else if (how == "offset") { CK(cudaMalloc(&s.send, big + (64 << 20))); CK(cudaMalloc(&s.recv, big + (64 << 20))); s.send += 2 << 20; s.recv += 2 << 20; }
    else { fprintf(stderr, "unknown set %s\n", how.c_str()); MPI_Abort(MPI_COMM_WORLD, 2); }
    fill(s.send, big, fillhow); fill(s.recv, big, fillhow == "none" ? "none" : fillhow == "h2d" ? "h2dzero" : "zero");
    sets.push_back(s);
  }
  CK(cudaDeviceSynchronize());
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  auto issue = [&](int op, ncclComm_t comm, Set& s) {
    if (op == 0) CK(ncclAllGather(s.send, s.recv, part / 4, ncclFloat, comm, st));
    else CK(ncclReduceScatter(s.send, s.recv, part / 4, ncclFloat, ncclSum, comm, st));
  };
  const char* names[] = {"all_gather", "reduce_scatter"};
  const bool use_nvml = !getenv("PROBE_NVML") || std::string(getenv("PROBE_NVML")) != "0";
  const bool host_timer = getenv("PROBE_TIMER") && std::string(getenv("PROBE_TIMER")) == "host";
  for (int pass = 0; pass < passes; ++pass)
    for (int c = 0; c < ncomms; ++c)
      for (size_t si = 0; si < sets.size(); ++si)
        for (int op = 0; op < 2; ++op) {
          for (int w = 0; w < 5; ++w) issue(op, comms[c], sets[si]);
          CK(cudaStreamSynchronize(st));
          std::vector<double> bw;
          unsigned clk_min = 1u << 30, clk_max = 0, mclk = 0, pw = 0; unsigned long long reasons = 0;
          for (int r = 0; r < 5; ++r) {
            MPI_Barrier(MPI_COMM_WORLD);
            const double h0 = MPI_Wtime();
            CK(cudaEventRecord(a, st));
            for (int i = 0; i < 20; ++i) issue(op, comms[c], sets[si]);
            CK(cudaEventRecord(b, st));
            for (int q = 0; use_nvml && q < 3; ++q) {  // while the batch (~140 ms) runs
              struct timespec ts{0, 40 * 1000 * 1000}; nanosleep(&ts, nullptr);
              unsigned clk = 0; nv_clock(nv, NV_CLOCK_SM, &clk);
              clk_min = std::min(clk_min, clk); clk_max = std::max(clk_max, clk);
              nv_clock(nv, NV_CLOCK_MEM, &mclk); nv_power(nv, &pw);
              unsigned long long rs = 0; if (nv_reasons) nv_reasons(nv, &rs); reasons |= rs;
            }
            CK(cudaStreamSynchronize(st));
            const double host_ms = (MPI_Wtime() - h0) * 1e3;
            float ms = 0; CK(cudaEventElapsedTime(&ms, a, b));
            double mx = host_timer ? host_ms : ms; MPI_Allreduce(MPI_IN_PLACE, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            const double t = mx / 1e3 / 20;
            bw.push_back(double(big) / t / 1e9 * (nranks_ - 1) / nranks_);
          }
          std::sort(bw.begin(), bw.end());
          unsigned all_min = clk_min, all_max = clk_max;
          MPI_Allreduce(MPI_IN_PLACE, &all_min, 1, MPI_UNSIGNED, MPI_MIN, MPI_COMM_WORLD);
          MPI_Allreduce(MPI_IN_PLACE, &all_max, 1, MPI_UNSIGNED, MPI_MAX, MPI_COMM_WORLD);
          unsigned long long all_reasons = reasons;
          MPI_Allreduce(MPI_IN_PLACE, &all_reasons, 1, MPI_UNSIGNED_LONG_LONG, MPI_BOR, MPI_COMM_WORLD);
          if (rank_ == 0)
            printf("t=%.1f pass=%d comm=%d set=%zu(%s) %-14s busbw med=%.1f min=%.1f max=%.1f smclk=%u-%u memclk=%u power=%.0fW reasons=0x%llx send=%p recv=%p\n",
                   now(), pass, c, si, sets[si].how.c_str(), names[op], bw[2], bw[0], bw[4], all_min, all_max, mclk, pw / 1000.0, all_reasons,
                   (void*)sets[si].send, (void*)sets[si].recv);
          fflush(stdout);
        }
  for (auto c : comms) ncclCommDestroy(c);
  MPI_Finalize();
}
