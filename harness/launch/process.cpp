#include "harness/launch/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "core/errors.hpp"

extern char** environ;

namespace fabricgate::launch {

namespace {

// The only process-wide state: which signal arrived while a child ran (signal handlers can do
// nothing else safely).
std::atomic<int> g_pending_signal{0};

extern "C" void remember_signal(int sig) { g_pending_signal.store(sig); }

std::vector<std::string> build_environment(const std::map<std::string, std::string>& set,
                                           const std::set<std::string>& unset) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (eq != std::string::npos &&
        (set.count(entry.substr(0, eq)) || unset.count(entry.substr(0, eq))))
      continue;
    env.push_back(entry);
  }
  for (const auto& [k, v] : set) env.push_back(k + "=" + v);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

pid_t spawn(const ProcessSpec& spec, int stdout_fd) {
  if (spec.argv.empty()) throw InfraError("internal: empty command");
  std::string program = spec.argv[0];
  if (program.find('/') == std::string::npos) {
    program = find_in_path(program);
    if (program.empty())
      throw InfraError("cannot start \"" + spec.argv[0] + "\": not found in PATH");
  }
  std::vector<std::string> args = spec.argv;
  std::vector<std::string> env = build_environment(spec.env_set, spec.env_unset);
  auto argp = pointers(args);
  auto envp = pointers(env);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: the timeout kills mpirun and its ranks
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stdout_fd >= 0) posix_spawn_file_actions_adddup2(&actions, stdout_fd, STDOUT_FILENO);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, &attr, argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw InfraError("cannot start " + program + ": " + std::strerror(rc));
  return pid;
}

}  // namespace

std::string ProcessResult::describe() const {
  if (timed_out) return "timed out (killed)";
  if (interrupted) return "interrupted";
  if (signal != 0) return std::string("killed by signal ") + strsignal(signal);
  return "exit code " + std::to_string(exit_code);
}

std::string find_in_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::string p(path);
  std::size_t start = 0;
  while (start <= p.size()) {
    const std::size_t end = p.find(':', start);
    const std::string dir =
        p.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return {};
}

ProcessResult run_process(const ProcessSpec& spec,
                          const std::function<void()>& before_timeout_kill) {
  int out_fd = -1;
  if (!spec.stdout_file.empty()) {
    out_fd = ::open(spec.stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out_fd < 0)
      throw InfraError("cannot open " + spec.stdout_file + ": " + std::strerror(errno));
  }
  struct sigaction sa {};
  struct sigaction old_int {
  }, old_term{};
  sa.sa_handler = remember_signal;
  sigemptyset(&sa.sa_mask);
  g_pending_signal.store(0);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);

  ProcessResult result;
  pid_t pid = -1;
  try {
    pid = spawn(spec, out_fd);
  } catch (...) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    if (out_fd >= 0) ::close(out_fd);
    throw;
  }
  if (out_fd >= 0) ::close(out_fd);
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  bool killed = false;
  for (;;) {
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (const int sig = g_pending_signal.exchange(0); sig != 0) {
      result.interrupted = true;
      ::kill(-pid, sig);  // the whole group: mpirun forwards to its ranks
    }
    if (!killed && spec.timeout && std::chrono::steady_clock::now() - start > *spec.timeout) {
      result.timed_out = true;
      if (before_timeout_kill) before_timeout_kill();
      ::kill(-pid, SIGTERM);
      std::this_thread::sleep_for(std::chrono::seconds(2));
      ::kill(-pid, SIGKILL);
      killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::optional<std::string> capture_output(const std::vector<std::string>& argv,
                                          std::size_t max_bytes, std::chrono::seconds timeout) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  ProcessSpec spec;
  spec.argv = argv;
  pid_t pid = -1;
  try {
    pid = spawn(spec, fds[1]);
  } catch (const InfraError&) {
    ::close(fds[0]);
    ::close(fds[1]);
    return std::nullopt;
  }
  ::close(fds[1]);
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      ::kill(-pid, SIGKILL);
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n <= 0) break;
    if (out.size() < max_bytes) out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  if (out.size() > max_bytes) out.resize(max_bytes);
  return out;
}

}  // namespace fabricgate::launch
