#include "harness/fingerprint/platform_key.hpp"

#include <cctype>
#include <regex>

#include "core/json_file.hpp"

namespace fabricgate::fingerprint {

std::string slug(std::string_view text) {
  std::string out;
  bool pending_dash = false;
  for (const char raw : text) {
    const auto c = static_cast<unsigned char>(raw);
    if (std::isalnum(c) != 0 && c < 128) {
      if (pending_dash && !out.empty()) out += '-';
      pending_dash = false;
      out += static_cast<char>(std::tolower(c));
    } else {
      pending_dash = true;
    }
  }
  return out;
}

std::string gpu_model_slug(std::string_view name) {
  std::string s = slug(name);
  for (const std::string_view prefix : {"nvidia-", "tesla-"}) {
    if (s.rfind(prefix, 0) == 0) s.erase(0, prefix.size());
  }
  return s.empty() ? "gpu" : s;
}

std::string cpu_model_slug(std::string_view model) {
  // A CPU model name is under 100 characters; an imported fingerprint may carry any length, and
  // std::regex recurses per character of `.*` (a 30 kB tail overflowed the stack). The slug
  // keeps 40 characters, so the first 256 decide it.
  std::string text(model.substr(0, 256));
  // Order matters: cut the tail first, then the words that carry no identity.
  for (const char* pattern : {R"(\s*@.*$)", R"(\s+with\s.*$)"}) {
    text = std::regex_replace(text, std::regex(pattern, std::regex::icase), "");
  }
  for (const char* pattern :
       {R"(\((R|TM|C)\))", R"(\b[0-9]+-Core\b)", R"(\bCPU\b)", R"(\bProcessor\b)"}) {
    text = std::regex_replace(text, std::regex(pattern, std::regex::icase), " ");
  }
  std::string s = slug(text);
  if (s.size() > 40) {
    s.resize(40);
    while (!s.empty() && s.back() == '-') s.pop_back();
  }
  return s.empty() ? "unknown" : s;
}

std::string derive_platform_key(const PlatformFacts& facts) {
  if (facts.gpu_count == 0) {
    return "cpu-" + cpu_model_slug(facts.cpu_model) + "-c" + std::to_string(facts.logical_cores);
  }
  std::string key = gpu_model_slug(facts.gpu_model);
  // SXM modules are the NVLinked ones; a name that already says sxm, or a PCIe card joined by an
  // NVLink bridge ("... PCIe", "H100 NVL"), must not be labelled -sxm.
  const bool says_form_factor = key.find("sxm") != std::string::npos ||
                                key.find("pcie") != std::string::npos || key.ends_with("-nvl");
  if (facts.nvlink_active && !says_form_factor) key += "-sxm";
  key += "-x" + std::to_string(facts.gpu_count);
  if (facts.gpu_count >= 2) {
    key += facts.min_pair_nvlinks > 0 ? "-nv" + std::to_string(facts.min_pair_nvlinks) : "-pcie";
  }
  return key;
}

void validate_platform_key(std::string_view key, const std::string& origin,
                           const std::string& field) {
  require_safe_name(key, origin, field);
}

}  // namespace fabricgate::fingerprint
