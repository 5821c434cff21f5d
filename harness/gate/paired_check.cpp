#include "harness/gate/paired_check.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/json_file.hpp"

namespace fabricgate::gate {

namespace {

bool worse(const std::string& v) { return v == "FAIL" || v == "BIMODAL" || v == "ONLY-A"; }
bool within(const std::string& v) { return v == "PASS" || v == "IMPROVEMENT"; }

std::string items_text(const std::vector<std::string>& items) {
  std::string t;
  for (const std::string& i : items) t += (t.empty() ? "" : " ") + i;
  return t.empty() ? std::string("(the job as it is)") : t;
}

}  // namespace

PairedCheckSides paired_check_sides(const std::vector<verdict::Change>& fingerprint_changes) {
  PairedCheckSides s;
  for (const verdict::Change& ch : fingerprint_changes) {
    if (!ch.what.starts_with("env/")) continue;
    const std::string name = ch.what.substr(4);
    if (!(name.starts_with("NCCL_") || name.starts_with("OMPI_") || name.starts_with("FI_") ||
          name.starts_with("UCX_")))
      continue;
    if (ch.before.empty()) {
      s.a.push_back("unset=" + name);
    } else {
      s.a.push_back(name + "=" + ch.before);
      s.a_sets.emplace_back(name, ch.before);
    }
    s.b.push_back(ch.after.empty() ? "unset=" + name : name + "=" + ch.after);
  }
  return s;
}

nlohmann::json paired_check_to_json(const PairedCheck& p) {
  nlohmann::json keys = nlohmann::json::object();
  for (const auto& [key, k] : p.keys) {
    keys[key] = {{"verdict", k.verdict},
                 {"low", k.low},
                 {"high", k.high},
                 {"tolerance", k.tolerance},
                 {"pairs", k.pairs}};
  }
  return {{"schema", kPairedCheckSchema},
          {"directory", p.directory},
          {"a", p.a_items},
          {"b", p.b_items},
          {"pairs", p.pairs},
          {"stop_reason", p.stop_reason},
          {"keys", keys}};
}

PairedCheck paired_check_from_json(const nlohmann::json& doc, const std::string& source) {
  PairedCheck p;
  try {
    p.directory = doc.at("directory").get<std::string>();
    p.a_items = doc.at("a").get<std::vector<std::string>>();
    p.b_items = doc.at("b").get<std::vector<std::string>>();
    p.pairs = doc.at("pairs").get<int>();
    p.stop_reason = doc.at("stop_reason").get<std::string>();
    for (const auto& [key, k] : doc.at("keys").items()) {
      p.keys[key] = {k.at("verdict").get<std::string>(), k.at("low").get<double>(),
                     k.at("high").get<double>(), k.at("tolerance").get<double>(),
                     k.at("pairs").get<int>()};
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source, "",
                     std::string("a paired check (") + kPairedCheckSchema +
                         "): directory, a, b, pairs, stop_reason, keys{verdict, "
                         "low, high, tolerance, pairs}; " +
                         e.what());
  }
  return p;
}

std::optional<PairedCheck> load_paired_check(const std::filesystem::path& run_dir) {
  const std::filesystem::path file = run_dir / kPairedCheckFile;
  if (run_dir.empty() || !std::filesystem::exists(file)) return std::nullopt;
  return paired_check_from_json(load_json_file(file, kPairedCheckSchema), file.string());
}

void apply_paired_check(verdict::Comparison& c, const PairedCheck& p) {
  c.paired_check_dir = p.directory;
  c.paired_check_pairs = p.pairs;
  const std::string sides = "A " + items_text(p.a_items) + " (the baseline's settings), B " +
                            items_text(p.b_items) + " (this run's)";
  for (verdict::KeyComparison& k : c.keys) {
    if (!verdict::verdict_change_unjudged(k.verdict)) continue;
    const auto it = p.keys.find(k.key);
    if (it == p.keys.end()) {
      ++c.paired_check_open;
      k.reason += "; the paired check on this runner did not measure it";
      continue;
    }
    const PairedCheckKey& r = it->second;
    const std::string figures = fmt::format(
        "paired check on this runner, {}: performance B/A {:.3f} … {:.3f} after {} pair(s), "
        "tolerance {:.1f} % ({}; {})",
        sides, r.low, r.high, r.pairs, r.tolerance * 100, r.verdict, p.directory);
    if (worse(r.verdict)) {
      ++c.paired_check_worse;
      k.verdict = verdict::Verdict::regression;
      k.reason =
          "the change made this runner slower: " + figures + ". Fleet judgement: " + k.reason;
    } else if (within(r.verdict)) {
      ++c.paired_check_within;
      k.verdict = verdict::Verdict::pass;
      k.reason = "the change did not make this runner slower: " + figures +
                 ". The runner differs from the fleet: " + k.reason;
    } else {
      ++c.paired_check_open;
      k.reason += "; not decided by the " + figures;
    }
  }
}

}  // namespace fabricgate::gate
