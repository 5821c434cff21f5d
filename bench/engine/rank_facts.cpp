#include "bench/engine/rank_facts.hpp"

#include <time.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/json_file.hpp"

namespace fabricgate::bench {

std::optional<double> thread_cpu_seconds() {
  timespec t{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return std::nullopt;
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string cpu_set() {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string field = "Cpus_allowed_list:";
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) != 0) continue;
    const auto start = line.find_first_not_of(" \t", field.size());
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return {};
}

namespace {

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

ProgressBeacon::ProgressBeacon(std::filesystem::path dir, int rank, int interval_ms)
    : rank_(rank), interval_ms_(interval_ms), host_(host_name()) {
  if (dir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return;
  path_ = dir / (std::to_string(rank) + ".progress.json");
  write_now();
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      wake_.wait_for(lock, std::chrono::milliseconds(interval_ms_));
      lock.unlock();
      write_now();
      lock.lock();
    }
  });
}

ProgressBeacon::~ProgressBeacon() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ProgressBeacon::completed(const std::string& key, int sample) {
  std::lock_guard lock(mutex_);
  key_ = key;
  sample_ = sample;
  ++steps_;
}

void ProgressBeacon::finished() {
  {
    std::lock_guard lock(mutex_);
    finished_ = true;
  }
  wake_.notify_all();  // the beacon's own thread writes it: one writer per file
}

void ProgressBeacon::write_now() {
  nlohmann::json doc;
  {
    std::lock_guard lock(mutex_);
    if (path_.empty()) return;
    doc = {{"schema", "fabricgate.rank-progress/1"},
           {"rank", rank_},
           {"host", host_},
           {"pid", static_cast<long long>(getpid())},
           {"key", key_},
           {"sample", sample_},
           {"steps", steps_},
           {"finished", finished_},
           {"time", wall_seconds()}};
  }
  try {
    write_json_atomically(path_, doc);
  } catch (const std::exception&) {
    std::lock_guard lock(mutex_);
    path_.clear();  // a full or read-only disk must not end the measurement: stop writing
  }
}

}  // namespace fabricgate::bench
