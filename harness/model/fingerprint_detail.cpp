#include "harness/model/fingerprint_detail.hpp"

#include <sstream>

#include "harness/model/secret_redaction.hpp"

namespace fabricgate {

namespace {

using nlohmann::json;

const json* member(const json& j, const char* name) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(name);
  return it == j.end() ? nullptr : &*it;
}

std::string text_of(const json* j) {
  if (j == nullptr || j->is_null()) return "";
  if (j->is_string()) return j->get<std::string>();
  return j->dump();
}

void put(FingerprintDetail& out, const std::string& field, const std::string& value) {
  if (!value.empty()) out[field] = value;
}

// A library section ({"available", "version", "path"}): version and path, when it was found.
void library(FingerprintDetail& out, const json& fp, const char* section, const std::string& name) {
  const json* s = member(fp, section);
  if (s == nullptr) return;
  if (const json* available = member(*s, "available");
      available && available->is_boolean() && !available->get<bool>()) {
    out[name] = "none";
    return;
  }
  put(out, name, text_of(member(*s, "version")));
  put(out, name + "_path", text_of(member(*s, "path")));
}

// nccl.conf is NAME=VALUE lines with # comments, the same settings as NCCL_* variables.
void nccl_conf(FingerprintDetail& out, const json& files) {
  if (!files.is_array()) return;
  for (const json& f : files) {
    const std::string path = text_of(member(f, "path"));
    std::istringstream lines(text_of(member(f, "contents")));
    std::string line;
    while (std::getline(lines, line)) {
      const auto first = line.find_first_not_of(" \t");
      if (first == std::string::npos || line[first] == '#') continue;
      const auto eq = line.find('=', first);
      if (eq == std::string::npos) continue;
      std::string name = line.substr(first, eq - first);
      name.erase(name.find_last_not_of(" \t") + 1);
      std::string value = line.substr(eq + 1);
      value.erase(0, value.find_first_not_of(" \t"));
      value.erase(value.find_last_not_of(" \t\r") + 1);
      out["nccl.conf/" + name] = recordable_value(name, value) + " (" + path + ")";
    }
  }
}

void gpus(FingerprintDetail& out, const json& fp) {
  const json* g = member(fp, "gpus");
  if (g == nullptr) return;
  put(out, "driver", text_of(member(*g, "driver_version")));
  put(out, "cuda_driver", text_of(member(*g, "cuda_driver_version")));
  if (const json* rt = member(*g, "cuda_runtime")) {
    put(out, "cuda_runtime", text_of(member(*rt, "version")));
    put(out, "cuda_runtime_path", text_of(member(*rt, "path")));
  }
  const json* devices = member(*g, "devices");
  if (devices == nullptr || !devices->is_array()) return;
  put(out, "gpu_count", std::to_string(devices->size()));
  for (std::size_t i = 0; i < devices->size(); ++i) {
    const json& d = (*devices)[i];
    const std::string gpu = "gpu" + std::to_string(i);
    put(out, gpu,
        text_of(member(d, "name")) + " " + text_of(member(d, "pci_bus_id")) + " " +
            text_of(member(d, "uuid")));
    if (const json* pcie = member(d, "pcie")) {
      put(out, gpu + "/pcie",
          "Gen" + text_of(member(*pcie, "current_gen")) + " x" +
              text_of(member(*pcie, "current_width")));
    }
    if (const json* nvlink = member(d, "nvlink"))
      put(out, gpu + "/nvlinks", text_of(member(*nvlink, "active_links")));
  }
}

std::string joined_names(const json* list, const char* name_field) {
  std::string out;
  if (list == nullptr || !list->is_array()) return out;
  for (const json& d : *list) {
    const std::string name = text_of(member(d, name_field));
    if (!name.empty()) out += (out.empty() ? "" : ",") + name;
  }
  return out;
}

void nics(FingerprintDetail& out, const json& fp) {
  const json* rdma = member(fp, "rdma");
  if (rdma == nullptr) return;
  if (const json* verbs = member(*rdma, "ibverbs")) {
    put(out, "nics", joined_names(member(*verbs, "devices"), "name"));
    if (const json* devices = member(*verbs, "devices"); devices && devices->is_array()) {
      for (const json& d : *devices) {
        const std::string name = text_of(member(d, "name"));
        const json* ports = member(d, "ports");
        if (name.empty() || ports == nullptr || !ports->is_array()) continue;
        for (const json& p : *ports) {
          put(out, "nic/" + name + "/port" + text_of(member(p, "port")),
              text_of(member(p, "state")) + " " + text_of(member(p, "rate")) + " " +
                  text_of(member(p, "link_layer")));
        }
      }
    }
  }
  if (const json* lf = member(*rdma, "libfabric"))
    put(out, "libfabric_devices", joined_names(member(*lf, "devices"), "device"));
}

}  // namespace

std::string recordable_detail(const std::string& field, const std::string& value) {
  for (const std::string_view prefix : {"env/", "nccl.conf/"}) {
    if (field.rfind(prefix, 0) == 0) return recordable_value(field.substr(prefix.size()), value);
  }
  return redact_secret_shapes(value);
}

FingerprintDetail fingerprint_detail(const json& fp) {
  FingerprintDetail out;
  if (!fp.is_object()) return out;
  gpus(out, fp);
  library(out, fp, "nccl", "nccl");
  library(out, fp, "mpi", "mpi");
  if (const json* nccl = member(fp, "nccl")) {
    if (const json* files = member(*nccl, "config_files")) nccl_conf(out, *files);
  }
  if (const json* env = member(fp, "environment")) {
    if (const json* vars = member(*env, "variables"); vars && vars->is_object()) {
      for (const auto& [name, value] : vars->items())
        out["env/" + name] = recordable_value(name, text_of(&value));
    }
  }
  nics(out, fp);
  if (const json* host = member(fp, "host")) {
    if (const json* kernel = member(*host, "kernel"))
      put(out, "kernel", text_of(member(*kernel, "release")));
  }
  return out;
}

}  // namespace fabricgate
