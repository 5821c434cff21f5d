#include "harness/cli/run_progress.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace fabricgate::cli {

namespace fs = std::filesystem;

namespace {

std::string printable(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  return out;
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

RunProgress::RunProgress(fs::path results_dir, ProgressMode mode, std::chrono::seconds heartbeat)
    : results_dir_(std::move(results_dir)),
      started_(fs::file_time_type::clock::now()),
      started_steady_(std::chrono::steady_clock::now()),
      heartbeat_(std::max(heartbeat, std::chrono::seconds(1))),
      mode_(mode) {
  if (mode == ProgressMode::terminal) thread_ = std::thread([this] { watch(); });
  if (mode == ProgressMode::heartbeat) thread_ = std::thread([this] { beat(); });
}

RunProgress::~RunProgress() {
  if (!thread_.joinable()) return;
  stop_ = true;
  thread_.join();
  if (mode_ == ProgressMode::terminal) std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
}

std::string RunProgress::line_for(const std::string& records_text) {
  long long total = 0;
  long long done = 0;
  std::string last;
  std::istringstream lines(records_text);
  for (std::string line; std::getline(lines, line);) {
    // A line being written is incomplete JSON: skipped, it is read again on the next poll.
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object()) continue;
    const std::string type = j.value("type", "");
    if (type == "header" && j.contains("benchmarks") && j["benchmarks"].is_number_integer()) {
      total = j["benchmarks"].get<long long>();
    } else if (type == "benchmark") {
      ++done;
      last = j.value("key", "") + " " + j.value("status", "");
    }
  }
  if (done == 0) return "";
  std::string line =
      "[" + std::to_string(done) + "/" + std::to_string(total) + "] " + printable(last);
  constexpr std::size_t kWidth = 110;  // one terminal line: a wrapped line would not be rewritten
  if (line.size() > kWidth) line = line.substr(0, kWidth - 3) + "...";
  return line;
}

std::string RunProgress::heartbeat_for(const std::string& records_text,
                                       std::chrono::seconds elapsed) {
  const long long s = elapsed.count();
  const std::string clock = fmt::format("{}m{:02}s elapsed", s / 60, s % 60);
  const std::string progress = line_for(records_text);
  if (progress.empty()) return clock + ", waiting for the first benchmark";
  // "[k/N] key status" → "[k/N] <clock>, last done key status"
  const std::size_t space = progress.find(' ');
  return progress.substr(0, space) + " " + clock + ", last done " + progress.substr(space + 1);
}

fs::path RunProgress::newest_records() const {
  fs::path newest;
  fs::file_time_type newest_time = started_;
  std::error_code ec;
  for (const auto& platform : fs::directory_iterator(results_dir_, ec)) {
    for (const auto& run : fs::directory_iterator(platform.path(), ec)) {
      const fs::path records = run.path() / "records.jsonl";
      const auto t = fs::last_write_time(records, ec);
      if (!ec && t >= newest_time) {
        newest = records;
        newest_time = t;
      }
    }
  }
  return newest;
}

void RunProgress::beat() {
  auto next = started_steady_ + heartbeat_;
  while (!stop_) {
    if (std::chrono::steady_clock::now() < next) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      continue;
    }
    next += heartbeat_;
    const fs::path records = newest_records();
    const auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::steady_clock::now() - started_steady_);
    const std::string line = heartbeat_for(records.empty() ? "" : read_all(records), elapsed);
    std::fprintf(stderr, "fabricgate: %s\n", line.c_str());
    std::fflush(stderr);
  }
}

void RunProgress::watch() {
  std::string shown;
  // One last look after stop is asked for, so a suite that finishes between two polls still shows
  // its final count before the line is cleared.
  for (bool last_look = false; !last_look;) {
    last_look = stop_;
    const fs::path records = newest_records();
    if (!records.empty()) {
      const std::string line = line_for(read_all(records));
      if (!line.empty() && line != shown) {
        std::fprintf(stderr, "\r\033[Kfabricgate: %s", line.c_str());
        std::fflush(stderr);
        shown = line;
      }
    }
    if (!last_look) std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

}  // namespace fabricgate::cli
