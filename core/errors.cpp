#include "core/errors.hpp"

#include "core/text_escape.hpp"

namespace fabricgate {

namespace {
// Messages quote input (keys, names, values): each part is made one printable line and cut, so
// an error can neither inject terminal escapes or workflow commands nor flood the log.
std::string compose(const std::string& file, const std::string& field, const std::string& what) {
  std::string msg = file.empty() ? std::string("<input>") : report::printable(file, 1024);
  if (!field.empty()) msg += ": field " + report::printable(field, 1024);
  msg += ": " + report::printable(what);
  return msg;
}
}  // namespace

InputError::InputError(std::string file, std::string field, const std::string& expectation)
    : std::runtime_error(compose(file, field, expectation)),
      file_(std::move(file)),
      field_(std::move(field)) {}

InfraError::InfraError(const std::string& message)
    : std::runtime_error(report::printable(message)) {}

InputError::InputError(const std::string& message)
    : std::runtime_error(report::printable(message)) {}

}  // namespace fabricgate
