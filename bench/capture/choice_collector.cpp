#include "bench/capture/choice_collector.hpp"

#include "core/nccl_names.hpp"

#include <charconv>
#include <utility>

namespace fabricgate::capture {
namespace {

// Counts one value without allocating once the key exists (the steady state of a benchmark).
void bump(CountMap& counts, std::string_view key) {
  auto it = counts.find(key);
  if (it == counts.end()) it = counts.emplace(std::string(key), 0).first;
  ++it->second;
}

void bump_number(CountMap& counts, unsigned long long value) {
  char text[24];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  bump(counts, ec == std::errc{} ? std::string_view(text, static_cast<std::size_t>(end - text))
                                 : std::string_view("?"));
}

std::string_view name_or_unknown(const char* s) { return s != nullptr ? std::string_view(s) : "?"; }

}  // namespace

void ChoiceCollector::set_label(std::string label) {
  std::lock_guard lock(mutex_);
  label_ = std::move(label);
  current_ = nullptr;
}

std::string ChoiceCollector::label() const {
  std::lock_guard lock(mutex_);
  return label_;
}

void ChoiceCollector::record(const CollectiveChoice& e) {
  std::lock_guard lock(mutex_);
  if (current_ == nullptr) current_ = &by_label_[label_];
  ChoiceSummary& s = *current_;
  ++s.events;
  bump(s.funcs, name_or_unknown(e.func));
  bump(s.datatypes, name_or_unknown(e.datatype));
  bump(s.algo, canonical_algo(name_or_unknown(e.algo)));
  bump(s.proto, canonical_proto(name_or_unknown(e.proto)));
  bump_number(s.channels, static_cast<unsigned long long>(e.channels < 0 ? 0 : e.channels));
  bump_number(s.warps, static_cast<unsigned long long>(e.warps < 0 ? 0 : e.warps));
  bump_number(s.counts, e.count);
}

ChoiceSummary ChoiceCollector::take(const std::string& label) {
  std::lock_guard lock(mutex_);
  auto node = by_label_.extract(label);
  if (node.empty()) return {};
  if (current_ == &node.mapped()) current_ = nullptr;
  return std::move(node.mapped());
}

void ChoiceCollector::clear() {
  std::lock_guard lock(mutex_);
  by_label_.clear();
  current_ = nullptr;
}

void ChoiceCollector::note_init(int abi_version) {
  int expected = 0;
  abi_version_.compare_exchange_strong(expected, abi_version, std::memory_order_acq_rel);
  live_.fetch_add(1, std::memory_order_acq_rel);
}

void ChoiceCollector::note_finalize() { live_.fetch_sub(1, std::memory_order_acq_rel); }

}  // namespace fabricgate::capture
