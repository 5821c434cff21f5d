#pragma once
// Writes NCCL debug lines the way src/debug.cc does ("host:pid:tid [dev] NCCL INFO " + message),
// with the message produced by printf from NCCL's own INFO format strings, so that the corpus
// follows the published formats instead of hand-typed samples.
#include <cstdarg>
#include <cstdio>
#include <string>
#include <string_view>

namespace fabricgate::capture::testing {

class LogWriter {
 public:
  LogWriter(std::string host, int pid, int cuda_dev)
      : host_(std::move(host)), pid_(pid), dev_(cuda_dev) {}

  // One INFO line; `fmt` is an NCCL format string, checked against the arguments by the compiler.
  __attribute__((format(printf, 2, 3))) void info(const char* fmt, ...) {
    char message[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    char prefix[256];
    std::snprintf(prefix, sizeof prefix, "%s%s:%d:%d [%d] NCCL INFO ", timestamp_.c_str(),
                  host_.c_str(), pid_, pid_ + 7, dev_);
    text_ += prefix;
    text_ += message;
    text_ += '\n';
  }

  void raw(std::string_view line) {
    text_ += line;
    text_ += '\n';
  }

  // NCCL_DEBUG_TIMESTAMP_LEVELS (2.26+) puts "[%F %T] " in front of the host.
  void set_timestamp(std::string ts) { timestamp_ = std::move(ts); }

  const std::string& text() const { return text_; }

 private:
  std::string host_;
  int pid_;
  int dev_;
  std::string timestamp_;
  std::string text_;
};

// A stand-in for the comm pointer NCCL prints with %p.
inline void* comm_ptr() {
  static int comm;
  return &comm;
}

}  // namespace fabricgate::capture::testing
