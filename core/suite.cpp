#include "core/suite.hpp"

#include "core/errors.hpp"
#include "core/suite_limits.hpp"

namespace fabricgate {

bool is_safe_env_name(const std::string& name) {
  if (name.empty() || name.size() > 128) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool ok = (c >= 'A' && c <= 'Z') || c == '_' || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

bool is_safe_env_value(const std::string& value) {
  if (value.size() > 4096) return false;
  for (const char c : value) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("_-.,:/=+@%^~ ").find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

bool entry_uses_nccl(const json& entry) {
  const std::string family = entry.value("family", "");
  return (family == "coll" || family == "nodepairs") &&
         entry.value("backend", family == "coll" ? "" : "mpi") == "nccl";
}

Suite load_suite(const std::filesystem::path& file) {
  Suite s;
  s.file = file;
  s.doc = load_json_file(file, "fabricgate.suite/1");
  const JsonReader rd(s.doc, file.string());
  s.name = rd.string_at("/name");
  require_safe_name(s.name, file.string(), "/name");
  if (const json* d = rd.find("/description")) {
    if (!d->is_string()) rd.fail("/description", "a string");
    s.description = d->get<std::string>();
  }
  if (const json* r = rd.find("/ranks")) {
    if (r->is_string() && r->get<std::string>() == "per-gpu") {
      s.ranks = 0;
    } else if (r->is_number_integer() && !r->is_number_float() && r->get<long long>() >= 1 &&
               r->get<long long>() <= kMaxRanks &&
               !(r->is_number_unsigned() && r->get<std::uint64_t>() > kMaxRanks)) {
      s.ranks = static_cast<int>(r->get<long long>());
    } else {
      rd.fail("/ranks", "\"per-gpu\" or an integer in [1, " + std::to_string(kMaxRanks) +
                            "], found " + r->dump());
    }
  }
  if (rd.find("/min_ranks")) {
    s.min_ranks = suite_integer_in(rd, "/min_ranks", IntegerRange{1, kMaxRanks}, 1);
  }
  if (rd.find("/scenarios")) {
    const json& arr = rd.array_at("/scenarios");
    if (arr.empty()) rd.fail("/scenarios", "a non-empty array of scenario names");
    s.scenarios.clear();
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const std::string p = "/scenarios/" + std::to_string(i);
      const std::string name = rd.string_at(p);
      // Scenario names such as "algo:Ring" carry a colon; everything else must be a safe name.
      std::string plain = name;
      for (auto& c : plain) {
        if (c == ':') c = '-';
      }
      if (!is_safe_name(plain))
        rd.fail(p,
                "a scenario name (default, nvlink-off, nic-path, socket-only, algo:<name>, "
                "proto:<name>)");
      s.scenarios.push_back(name);
    }
  }
  if (rd.find("/env")) {
    for (const auto& [k, v] : rd.object_at("/env").items()) {
      const std::string p = "/env/" + k;
      if (!is_safe_env_name(k)) rd.fail(p, "an environment variable name of A-Z, 0-9 and _");
      if (!v.is_string()) rd.fail(p, "a string value");
      const std::string value = v.get<std::string>();
      if (!is_safe_env_value(value)) {
        rd.fail(p,
                "a plain value without shell syntax ($ ` ; | & < > quotes or newlines), found \"" +
                    value + "\"");
      }
      s.env[k] = value;
    }
  }
  if (rd.find("/defaults")) rd.object_at("/defaults");
  const json& benchmarks = rd.array_at("/benchmarks");
  if (benchmarks.empty()) rd.fail("/benchmarks", "at least one benchmark entry");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const std::string p = "/benchmarks/" + std::to_string(i);
    rd.object_at(p);
    rd.string_at(p + "/family");
  }
  validate_suite_document(rd);
  return s;
}

std::filesystem::path resolve_suite(const std::string& name_or_path,
                                    const std::vector<std::filesystem::path>& dirs) {
  if (name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".json")) {
    if (!std::filesystem::exists(name_or_path))
      throw InputError(name_or_path, "", "suite file does not exist");
    return name_or_path;
  }
  if (!is_safe_name(name_or_path))
    throw InputError("--suite", "", "a suite name or a path to a suite file");
  std::string searched;
  for (const auto& d : dirs) {
    const auto candidate = d / (name_or_path + ".json");
    if (std::filesystem::exists(candidate)) return candidate;
    searched += " " + candidate.string();
  }
  throw InputError("--suite", "",
                   "no suite named \"" + name_or_path + "\" (looked for" + searched + ")");
}

}  // namespace fabricgate
