#include "harness/fingerprint/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

extern char** environ;  // POSIX: the process environment, passed to the child unchanged

namespace fabricgate::fingerprint {

namespace {

// Closes its descriptor on scope exit so no error path leaks one.
class Fd {
 public:
  Fd() = default;
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  Fd read_end;
  Fd write_end;
};

bool make_pipe(Pipe& pipe_pair) {
  std::array<int, 2> fds{};
  if (pipe2(fds.data(), O_CLOEXEC) != 0) return false;
  pipe_pair.read_end.reset(fds[0]);
  pipe_pair.write_end.reset(fds[1]);
  return true;
}

// Appends what is readable to `sink` up to the cap; false at end of file.
bool drain(int fd, std::string& sink, std::size_t cap, bool& truncated) {
  std::array<char, 16384> buffer{};
  const ssize_t n = read(fd, buffer.data(), buffer.size());
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  if (n == 0) return false;
  const auto got = static_cast<std::size_t>(n);
  const std::size_t room = sink.size() < cap ? cap - sink.size() : 0;
  sink.append(buffer.data(), std::min(room, got));
  if (got > room) truncated = true;
  return true;
}

}  // namespace

std::string ProgramResult::failure_text(const std::string& program) const {
  if (!started) return program + " could not be started: " + start_error;
  std::string text = program;
  if (timed_out) {
    text += " timed out and was killed";
  } else if (signal != 0) {
    text += " was killed by signal " + std::to_string(signal);
  } else {
    text += " exited with status " + std::to_string(exit_code);
  }
  const std::string first_line = err.substr(0, err.find('\n'));
  if (!first_line.empty()) text += ": " + first_line;
  return text;
}

ProgramResult run_program(const std::vector<std::string>& argv, std::size_t max_output_bytes,
                          std::chrono::milliseconds timeout) {
  ProgramResult result;
  if (argv.empty()) {
    result.start_error = "empty argument vector";
    return result;
  }
  Pipe out_pipe;
  Pipe err_pipe;
  if (!make_pipe(out_pipe) || !make_pipe(err_pipe)) {
    result.start_error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe.write_end.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe.write_end.get(), STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);

  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  out_pipe.write_end.reset();  // the child holds its own copies; EOF needs ours closed
  err_pipe.write_end.reset();
  if (rc != 0) {
    result.start_error = argv[0] + ": " + std::strerror(rc);
    return result;
  }
  result.started = true;

  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::array<pollfd, 2> fds{
      {{out_pipe.read_end.get(), POLLIN, 0}, {err_pipe.read_end.get(), POLLIN, 0}}};
  std::array<std::string*, 2> sinks{&result.out, &result.err};
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    const int ready = poll(fds.data(), fds.size(), static_cast<int>(left.count()));
    if (ready < 0 && errno != EINTR) break;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      if (!drain(fds[i].fd, *sinks[i], max_output_bytes, result.truncated)) fds[i].fd = -1;
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace fabricgate::fingerprint
