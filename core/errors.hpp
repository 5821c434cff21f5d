#pragma once
// The two exception types library code throws; the CLI turns them into exit codes
// (docs/DESIGN.md: 2 = input/usage error, 3 = infrastructure failure). Library code never exits.
#include <stdexcept>
#include <string>

namespace fabricgate {

// Process exit codes shared by every command.
enum class ExitCode : int { pass = 0, gate_failure = 1, input_error = 2, infra_failure = 3 };

// Bad input: names the file, the field (a JSON pointer such as /benchmarks/3/bytes) and what
// was expected, so that the person reading CI output can fix the file without a debugger.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string field, const std::string& expectation);
  explicit InputError(const std::string& message);  // when no file is involved (usage errors)

  const std::string& file() const noexcept { return file_; }
  const std::string& field() const noexcept { return field_; }

 private:
  std::string file_;
  std::string field_;
};

// Launch failures, hangs, crashes, device errors: the measurement could not be made.
class InfraError : public std::runtime_error {
 public:
  explicit InfraError(const std::string& message);  // shown as one printable line, cut
};

}  // namespace fabricgate
