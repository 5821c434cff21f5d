#include "harness/model/host_identity.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

namespace fabricgate {

std::string fnv1a64_hex(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return fmt::format("{:016x}", h);
}

namespace {

std::string string_at(const nlohmann::json& doc, const nlohmann::json::json_pointer& p) {
  if (!doc.contains(p)) return "";
  const auto& v = doc.at(p);
  return v.is_string() ? v.get<std::string>() : "";
}

}  // namespace

std::string host_id_of(const nlohmann::json& fingerprint) {
  using ptr = nlohmann::json::json_pointer;
  std::vector<std::string> uuids;
  if (fingerprint.is_object()) {
    if (const ptr p("/gpus/devices"); fingerprint.contains(p) && fingerprint.at(p).is_array()) {
      for (const auto& d : fingerprint.at(p)) {
        if (d.is_object() && d.contains("uuid") && d.at("uuid").is_string())
          uuids.push_back(d.at("uuid").get<std::string>());
      }
    }
  }
  // Sorted: the order NVML lists the GPUs in (or CUDA_VISIBLE_DEVICES) is not the machine.
  std::sort(uuids.begin(), uuids.end());
  std::string text =
      "host:" + (fingerprint.is_object() ? string_at(fingerprint, ptr("/host/hostname")) : "");
  const std::string machine =
      fingerprint.is_object() ? string_at(fingerprint, ptr("/host/machine_id")) : "";
  if (uuids.empty() && !machine.empty()) {
    text += "\nmachine:" + machine;
  } else if (uuids.empty()) {
    text +=
        "\ncpu:" + (fingerprint.is_object() ? string_at(fingerprint, ptr("/host/cpu_model")) : "");
  }
  for (const auto& u : uuids) text += "\ngpu:" + u;
  return fnv1a64_hex(text).substr(0, 12);
}

std::string session_id_of(const std::string& started_compact, const std::string& host_id,
                          long pid) {
  return fmt::format("{}-{}-{}", started_compact, host_id, pid);
}

}  // namespace fabricgate
