#pragma once
// A server the test starts and must stop (the recording HTTP server, a Pushgateway): started from
// an argv in its own process group, output to a log file, terminated and reaped on destruction.
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace fabricgate::testing {

class BackgroundProcess {
 public:
  BackgroundProcess(const std::vector<std::string>& argv, const std::filesystem::path& log);
  ~BackgroundProcess();
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;

  bool running();  // false once it has exited
  void stop();     // SIGTERM, then SIGKILL after 5 s; idempotent

 private:
  pid_t pid_ = -1;
};

// A loopback TCP port that was free a moment ago (bound to port 0, then closed).
int free_loopback_port();

}  // namespace fabricgate::testing
