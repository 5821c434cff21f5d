#include "harness/model/errors.hpp"

namespace fabricgate {

namespace {
std::string compose(const std::string& file, const std::string& field, const std::string& what) {
  std::string msg = file.empty() ? std::string("<input>") : file;
  if (!field.empty()) msg += ": field " + field;
  msg += ": " + what;
  return msg;
}
}  // namespace

InputError::InputError(std::string file, std::string field, const std::string& expectation)
    : std::runtime_error(compose(file, field, expectation)),
      file_(std::move(file)),
      field_(std::move(field)) {}

InputError::InputError(const std::string& message) : std::runtime_error(message) {}

}  // namespace fabricgate
