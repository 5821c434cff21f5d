// Port speed/width codes (ibv_port_attr, IBTA) → data rate. Compiled with and without libibverbs.
#include <string>

#include "bench/backends/verbs/verbs_backend.hpp"

namespace fabricgate::bench {

namespace {

struct Speed {
  unsigned code;
  const char* name;
  double lane_gbps;  // per lane, after encoding (8b/10b up to QDR, 64b/66b from FDR, PAM4 beyond)
};

constexpr Speed kSpeeds[] = {{1, "SDR", 2.0},    {2, "DDR", 4.0},     {4, "QDR", 8.0},
                             {8, "FDR10", 10.0}, {16, "FDR", 13.64},  {32, "EDR", 25.0},
                             {64, "HDR", 50.0},  {128, "NDR", 100.0}, {256, "XDR", 200.0}};

int lanes(unsigned width) {
  switch (width) {
    case 1: return 1;
    case 2: return 4;
    case 4: return 8;
    case 8: return 12;
    case 16: return 2;
    default: return 0;
  }
}

const Speed* find_speed(unsigned code) {
  for (const Speed& s : kSpeeds) {
    if (s.code == code) return &s;
  }
  return nullptr;
}

}  // namespace

double link_rate_gbps(unsigned active_speed, unsigned active_width) {
  const Speed* s = find_speed(active_speed);
  return s ? s->lane_gbps * lanes(active_width) : 0.0;
}

std::string link_name(unsigned active_speed, unsigned active_width) {
  const Speed* s = find_speed(active_speed);
  const int n = lanes(active_width);
  if (!s || n == 0)
    return "speed code " + std::to_string(active_speed) + " width code " +
           std::to_string(active_width);
  return std::string(s->name) + " " + std::to_string(n) + "x";
}

}  // namespace fabricgate::bench
