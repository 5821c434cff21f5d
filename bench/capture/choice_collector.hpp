#pragma once
// Aggregates NCCL's per-collective choices by benchmark label. NCCL calls in from the user
// thread that enqueues collectives and from its own threads, so every member is thread-safe.
// The bench sets a label before each benchmark and takes the summary after it.
#include <atomic>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "core/choice_summary.hpp"

namespace fabricgate::capture {

// One collective event as NCCL described it (strings are NCCL's static names; may be null).
struct CollectiveChoice {
  const char* func = nullptr;
  const char* datatype = nullptr;
  const char* algo = nullptr;
  const char* proto = nullptr;
  std::size_t count = 0;
  int channels = 0;
  int warps = 0;
};

class ChoiceCollector {
 public:
  // Events from now on count for `label` (the benchmark key); "" before the first label.
  void set_label(std::string label);
  std::string label() const;

  void record(const CollectiveChoice& event);

  // Returns what was recorded under `label` and forgets it.
  ChoiceSummary take(const std::string& label);
  void clear();

  // Called by the plugin entry points: NCCL initialised / finalised a communicator's profiler.
  void note_init(int abi_version);
  void note_finalize();

  // Whether NCCL initialised the plugin in this process (the "profiler" capture path is live).
  bool active() const { return abi_version_.load(std::memory_order_acquire) != 0; }
  // The plugin ABI version NCCL chose (4, 5, 6), 0 when never initialised.
  int abi_version() const { return abi_version_.load(std::memory_order_acquire); }
  // Communicators initialised and not yet finalised.
  int live_communicators() const { return live_.load(std::memory_order_acquire); }

 private:
  mutable std::mutex mutex_;
  std::string label_;
  std::map<std::string, ChoiceSummary, std::less<>> by_label_;
  ChoiceSummary* current_ = nullptr;  // by_label_[label_], cached for the hot path
  std::atomic<int> abi_version_{0};
  std::atomic<int> live_{0};
};

}  // namespace fabricgate::capture
