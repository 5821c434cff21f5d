#pragma once
// What the integration tests that drive the real binaries share: a file read whole, and a program
// run from an argument vector (no shell: paths and hostile strings reach it as data) with stdout
// and stderr kept apart and a time limit. Header-only; a test links fabricgate_fingerprint.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness/fingerprint/subprocess.hpp"

namespace fabricgate::testing {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct CliResult {
  int code = -1;  // the exit code; -1 when it did not start, was killed or ran past the limit
  std::string out;
  std::string err;
};

// argv[0] is looked up on PATH; output past `max_output` bytes is dropped.
inline CliResult run_command(const std::vector<std::string>& argv,
                             std::chrono::seconds limit = std::chrono::seconds(120),
                             std::size_t max_output = 16 << 20) {
  const auto r = fingerprint::run_program(argv, max_output, limit);
  return {r.started && !r.timed_out && r.signal == 0 ? r.exit_code : -1, r.out, r.err};
}

#ifdef FABRICGATE_CLI
// `fabricgate ARGS...` with the binary the test was built with.
inline CliResult run_fabricgate(std::vector<std::string> args,
                                std::chrono::seconds limit = std::chrono::seconds(120)) {
  args.insert(args.begin(), FABRICGATE_CLI);
  return run_command(args, limit);
}
#endif

}  // namespace fabricgate::testing
