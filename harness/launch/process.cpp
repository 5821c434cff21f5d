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
#include <set>
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

constexpr const char* kLaunchTag = "FABRICGATE_LAUNCH_TAG";

struct TaggedProcess {
  pid_t pid;
  std::string name;  // comm, at most 15 characters
};

// Every process whose environment carries `entry` (NAME=VALUE). Processes of other users, or that
// ended while read, are skipped.
std::vector<TaggedProcess> tagged_processes(const std::string& entry) {
  std::vector<TaggedProcess> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const int fd = ::open((it->path() / "environ").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    std::string env;
    char buf[8192];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0 && env.size() < (1u << 20);)
      env.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    bool found = false;
    for (std::size_t at = 0; at < env.size();) {
      const std::size_t zero = env.find('\0', at);
      const std::size_t stop = zero == std::string::npos ? env.size() : zero;
      if (env.compare(at, stop - at, entry) == 0) {
        found = true;
        break;
      }
      at = stop + 1;
    }
    if (!found) continue;
    std::string comm;
    const int cfd = ::open((it->path() / "comm").c_str(), O_RDONLY | O_CLOEXEC);
    if (cfd >= 0) {
      const ssize_t n = ::read(cfd, buf, 64);
      if (n > 0) comm.assign(buf, static_cast<std::size_t>(n));
      ::close(cfd);
    }
    while (!comm.empty() && (comm.back() == '\n' || comm.back() == '\0')) comm.pop_back();
    out.push_back({static_cast<pid_t>(std::stol(name)), comm});
  }
  return out;
}

// Kills the tagged processes but `keep`, the work's (and ourselves), adding "PID NAME" of each to
// `killed`.
void kill_tagged(const std::string& entry, pid_t keep, const std::set<pid_t>& work,
                 std::vector<std::string>& killed) {
  for (const TaggedProcess& p : tagged_processes(entry)) {
    if (p.pid == keep || p.pid == ::getpid() || work.count(p.pid)) continue;
    if (::kill(p.pid, SIGKILL) == 0) killed.push_back(std::to_string(p.pid) + " " + p.name);
  }
}

std::string random_tag() {
  unsigned char raw[8] = {};
  const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    [[maybe_unused]] const ssize_t n = ::read(fd, raw, sizeof raw);
    ::close(fd);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = std::to_string(::getpid()) + "-";
  for (const unsigned char b : raw) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
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
  const std::string tag = random_tag();
  const std::string tag_entry = std::string(kLaunchTag) + "=" + tag;
  ProcessSpec tagged = spec;
  tagged.env_set[kLaunchTag] = tag;
  try {
    pid = spawn(tagged, out_fd);
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
  // The work's processes (comm is cut at 15 characters), by PID: a --bench wrapper that execs the
  // bench keeps its PID under another name, and stays the work.
  const std::string work = spec.work_process.substr(0, 15);
  std::set<pid_t> work_pids;
  bool work_seen = false;
  auto work_last_seen = start;
  auto next_scan = start;
  for (;;) {
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    const auto now = std::chrono::steady_clock::now();
    if (!work.empty() && !result.held_open && now >= next_scan) {
      // Often enough to see a bench that runs for a second (a short suite), rarely enough that
      // reading /proc costs nothing next to the launch.
      next_scan = now + std::chrono::milliseconds(work_seen ? 1000 : 200);
      bool working = false;
      for (const TaggedProcess& p : tagged_processes(tag_entry)) {
        if (p.pid == pid) continue;
        if (p.name == work) work_pids.insert(p.pid);
        working = working || work_pids.count(p.pid) > 0;
      }
      if (working) {
        work_seen = true;
        work_last_seen = now;
      } else if (work_seen && now - work_last_seen >= spec.leftover_grace) {
        // The work ended; what keeps the launcher waiting is something it started.
        result.held_open = true;
        kill_tagged(tag_entry, pid, work_pids, result.leftovers);
      }
    }
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
  // Whatever of the launch outlived it (a setsid child of a wrapper) would load every later
  // launch: ended here, and listed.
  if (!work.empty()) kill_tagged(tag_entry, -1, {}, result.leftovers);
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
