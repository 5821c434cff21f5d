#include "core/in_flight_paths.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

namespace fabricgate {

namespace {

// Fixed storage: the handler may only read memory that needs no allocation or lock.
constexpr int kSlots = 32;
constexpr std::size_t kPathMax = 4096;

struct Slot {
  std::atomic<int> state{0};  // 0 free, 1 being filled, 2 in flight
  bool directory = false;
  char path[kPathMax] = {};
};

Slot g_slots[kSlots];

extern "C" void remove_in_flight_and_die(int sig) {
  for (const bool directories : {false, true}) {
    for (Slot& s : g_slots) {
      if (s.state.load() != 2 || s.directory != directories) continue;
      if (directories) {
        ::rmdir(s.path);
      } else {
        ::unlink(s.path);
      }
    }
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void install_handlers_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const int sig : {SIGTERM, SIGINT, SIGHUP}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
      struct sigaction sa {};
      sa.sa_handler = remove_in_flight_and_die;
      sigemptyset(&sa.sa_mask);
      for (const int other : {SIGTERM, SIGINT, SIGHUP}) sigaddset(&sa.sa_mask, other);
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

}  // namespace

InFlightPath::InFlightPath(const std::filesystem::path& path, bool directory) {
  const std::string text = std::filesystem::absolute(path).string();
  if (text.size() >= kPathMax) return;
  install_handlers_once();
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (!g_slots[i].state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(g_slots[i].path, text.c_str(), text.size() + 1);
    g_slots[i].directory = directory;
    g_slots[i].state.store(2);
    slot_ = i;
    return;
  }
}

InFlightPath::~InFlightPath() {
  if (slot_ >= 0) g_slots[slot_].state.store(0);
}

}  // namespace fabricgate
