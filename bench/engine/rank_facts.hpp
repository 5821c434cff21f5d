#pragma once
// Facts about this rank that name it in per-rank tables (host, CPU set) and the one clock the
// engine reads besides the steady clock: the calling thread's CPU time. Read outside the timed
// region, around a batch: wall time minus CPU time is the time the rank was off the CPU (waiting
// for a core, throttled by a CPU quota, asleep), docs/STRAGGLERS.md.
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace fabricgate::bench {

// Seconds the calling thread has run on a CPU since it started (CLOCK_THREAD_CPUTIME_ID); nullopt
// where the clock is unavailable (then per-rank paces are wall time alone).
std::optional<double> thread_cpu_seconds();

std::string host_name();
// The Cpus_allowed_list of this process ("0-3,8"), "" when unreadable.
std::string cpu_set();

// Hang forensics' side channel (docs/STRAGGLERS.md): `dir`/<rank>.progress.json, overwritten
// atomically every `interval_ms` by a thread of its own, so that a rank blocked in a hung
// collective keeps saying where it is (its heartbeat stays fresh) while a stopped or dead process
// goes stale. The measurement loop only stores its position (outside the timed region); it never
// touches the file. It keeps beating after the benchmarks, through the communicators' teardown
// (MPI_Finalize can hang too), and then says so (`finished`). An empty `dir` starts nothing.
class ProgressBeacon {
 public:
  ProgressBeacon(std::filesystem::path dir, int rank, int interval_ms);
  ~ProgressBeacon();
  ProgressBeacon(const ProgressBeacon&) = delete;
  ProgressBeacon& operator=(const ProgressBeacon&) = delete;
  // The last completed step: `key` and its sample (iteration) index; steps count every sample.
  void completed(const std::string& key, int sample);
  // Every benchmark of this rank is done (or was abandoned after a hang): from now on the rank is
  // in teardown. Written by the next beat, at once.
  void finished();

 private:
  void write_now();
  std::filesystem::path path_;
  int rank_ = 0;
  int interval_ms_ = 0;
  std::string host_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::string key_;
  int sample_ = -1;
  long long steps_ = 0;
  bool finished_ = false;
  std::thread thread_;
};

}  // namespace fabricgate::bench
