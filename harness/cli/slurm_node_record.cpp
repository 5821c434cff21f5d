#include "harness/cli/slurm_node_record.hpp"

namespace fabricgate::cli {

std::string slurm_field(const std::string& record, const std::string& field) {
  std::size_t start = std::string::npos;
  if (record.rfind(field + "=", 0) == 0) {
    start = field.size() + 1;
  } else if (const std::size_t at = record.find(" " + field + "="); at != std::string::npos) {
    start = at + field.size() + 2;
  }
  if (start == std::string::npos) return "";
  return record.substr(start, record.find(' ', start) - start);
}

std::string slurm_reason(const std::string& record) {
  const std::size_t at = record.find(" Reason=");
  return at == std::string::npos ? "" : record.substr(at + 8);
}

bool held_by_fabricgate(const std::string& record) {
  return slurm_reason(record).rfind("fabricgate: ", 0) == 0 &&
         slurm_field(record, "State").find("DRAIN") != std::string::npos;
}

}  // namespace fabricgate::cli
