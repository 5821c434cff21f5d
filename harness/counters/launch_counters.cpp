#include "harness/counters/launch_counters.hpp"

#include <unistd.h>

#include <algorithm>
#include <sstream>

#include "harness/counters/nvml_counter_source.hpp"
#include "harness/counters/process_tree.hpp"
#include "harness/counters/psi_counters.hpp"
#include "harness/counters/rdma_counters.hpp"

namespace fabricgate::counters {

namespace fs = std::filesystem;

namespace {

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// The MPS server runs every MPS client's kernels, ours included: it is shared infrastructure,
// not load of its own (its clients are listed as the processes they are).
constexpr const char* kMpsServer = "nvidia-cuda-mps-server";

void add_seen(std::string& seen, const char* when) {
  std::istringstream parts(seen);
  for (std::string part; std::getline(parts, part, '+');)
    if (part == when) return;
  seen += (seen.empty() ? "" : "+") + std::string(when);
}

bool selected(const std::vector<unsigned>& gpus, unsigned index) {
  return std::find(gpus.begin(), gpus.end(), index) != gpus.end();
}

}  // namespace

bool OwnProcesses::is_own(unsigned pid) const {
  if (descends_from(root, pid, own_pid)) return true;
  if (process_name(root, pid) == kMpsServer) return true;
  if (bench.empty()) return false;
  const fs::path exe = process_executable(root, pid);
  if (exe.empty()) return false;
  std::error_code ec;
  return fs::equivalent(exe, bench, ec) || exe == bench;
}

std::vector<unsigned> launch_gpus(const std::string& visible_devices,
                                  const std::vector<GpuSample>& gpus) {
  std::vector<unsigned> all;
  for (const GpuSample& g : gpus) all.push_back(g.index);
  if (visible_devices.empty()) return all;
  std::vector<unsigned> chosen;
  std::istringstream entries(visible_devices);
  for (std::string entry; std::getline(entries, entry, ',');) {
    entry.erase(std::remove(entry.begin(), entry.end(), ' '), entry.end());
    const auto match = std::find_if(gpus.begin(), gpus.end(), [&](const GpuSample& g) {
      if (!entry.empty() && entry.find_first_not_of("0123456789") == std::string::npos)
        return std::to_string(g.index) == entry;
      return entry.rfind("GPU-", 0) == 0 && g.sample.identity.rfind(entry, 0) == 0;
    });
    if (match == gpus.end()) return all;  // cannot map it (MIG, a typo): judge every GPU
    if (!selected(chosen, match->index)) chosen.push_back(match->index);
  }
  return chosen;
}

LaunchCounterWindow::LaunchCounterWindow(LaunchCounterOptions options) : o_(std::move(options)) {
  if (o_.own_pid == 0) o_.own_pid = static_cast<unsigned>(::getpid());
  if (!o_.gpu) o_.gpu = std::make_shared<NvmlCounterSource>();
  own_ = OwnProcesses{o_.root, o_.own_pid, o_.bench};
  const auto t0 = std::chrono::steady_clock::now();
  gpu_start_ = o_.gpu->start();
  launch_gpus_ = launch_gpus(o_.visible_devices, gpu_start_.gpus);
  RdmaSamples rdma = read_rdma_samples(o_.root);
  other_start_ = std::move(rdma.ports);
  unread_ = std::move(rdma.unread);
  other_start_.push_back(read_psi_sample(o_.root, o_.host_name));
  note_processes(gpu_start_, "start");
  cost_ms_ += ms_since(t0);
  started_ = std::chrono::steady_clock::now();
  if (gpu_start_.available && o_.sample_period.count() > 0)
    thread_ = std::thread([this] { sampler(); });
}

LaunchCounterWindow::~LaunchCounterWindow() { stop_sampler(); }

void LaunchCounterWindow::stop_sampler() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LaunchCounterWindow::sampler() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, o_.sample_period, [this] { return stopping_; })) {
    lock.unlock();
    const GpuSnapshot snap = o_.gpu->sample();
    note_processes(snap, "during");
    lock.lock();
    for (const GpuSample& g : snap.gpus) {
      auto& events = sampled_events_[g.index];
      for (const std::string& e : g.sample.events)
        if (std::find(events.begin(), events.end(), e) == events.end()) events.push_back(e);
    }
  }
}

void LaunchCounterWindow::note_processes(const GpuSnapshot& snap, const char* when) {
  for (const GpuSample& g : snap.gpus) {
    if (!selected(launch_gpus_, g.index)) continue;
    for (const GpuProcess& p : g.processes) {
      if (own_.is_own(p.pid)) continue;
      const std::lock_guard<std::mutex> lock(mutex_);
      ForeignProcess& f = foreign_[{p.pid, g.index}];
      if (f.pid == 0) {
        f.pid = p.pid;
        f.name = process_name(o_.root, p.pid);
        f.gpu_index = g.index;
        f.gpu_uuid = g.sample.identity;
      }
      f.used_memory_bytes = std::max(f.used_memory_bytes, p.used_memory_bytes);
      if (p.sm_percent) f.sm_percent = p.sm_percent;
      add_seen(f.seen, when);
    }
  }
}

RunnerCounters LaunchCounterWindow::finish() {
  stop_sampler();
  RunnerCounters out;
  out.present = true;
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const auto t0 = std::chrono::steady_clock::now();
  const GpuSnapshot gpu_end = o_.gpu->end();
  RdmaSamples rdma_end = read_rdma_samples(o_.root);
  rdma_end.ports.push_back(read_psi_sample(o_.root, o_.host_name));
  note_processes(gpu_end, "end");
  cost_ms_ += ms_since(t0);
  out.snapshot_ms = cost_ms_;

  std::vector<DeviceSample> start, end;
  for (const GpuSample& g : gpu_start_.gpus)
    if (selected(launch_gpus_, g.index)) start.push_back(g.sample);
  for (const GpuSample& g : gpu_end.gpus)
    if (selected(launch_gpus_, g.index)) end.push_back(g.sample);
  start.insert(start.end(), other_start_.begin(), other_start_.end());
  end.insert(end.end(), rdma_end.ports.begin(), rdma_end.ports.end());
  out.devices = device_deltas(start, end);
  for (DeviceCounters& d : out.devices) {
    if (d.kind != "gpu") continue;
    for (const auto& [index, events] : sampled_events_) {
      if (d.device != "GPU " + std::to_string(index)) continue;
      for (const std::string& e : events)
        if (!d.has_event(e)) d.events.push_back(e);
    }
  }
  if (!gpu_start_.available)
    out.unread.push_back({"nvml", "counters not read: " + gpu_start_.reason});
  for (const Unread& u : gpu_start_.unread) out.unread.push_back(u);
  for (const Unread& u : gpu_end.unread) out.unread.push_back(u);
  for (const Unread& u : unread_) out.unread.push_back(u);
  for (const GpuSample& g : gpu_start_.gpus) out.processes_checked |= g.processes_read;
  for (auto& [key, f] : foreign_) out.foreign_processes.push_back(f);
  return out;
}

}  // namespace fabricgate::counters
