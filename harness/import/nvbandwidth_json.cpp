#include "harness/import/nvbandwidth_json.hpp"

#include <optional>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "harness/import/source_text.hpp"

namespace fabricgate::import {

namespace {

// "0: NVIDIA H200 (00000000:06:00): (vm)" -> ("NVIDIA H200 (00000000:06:00)", "vm")
std::pair<std::string, std::string> device_entry(const JsonReader& r, const std::string& p,
                                                 std::size_t index) {
  const std::string s = r.string_at(p);
  const std::string prefix = std::to_string(index) + ": ";
  if (s.compare(0, prefix.size(), prefix) != 0)
    r.fail(p, "\"" + prefix + "<GPU>: (<host>)\" (devices in index order)");
  std::string rest = s.substr(prefix.size());
  std::string host;
  const auto open = rest.rfind(": (");
  if (open != std::string::npos && !rest.empty() && rest.back() == ')') {
    host = rest.substr(open + 3, rest.size() - open - 4);
    rest.resize(open);
  }
  return {printable(rest, 96), printable(host, 64)};
}

std::optional<double> cell(const JsonReader& r, const std::string& p) {
  const json& v = r.at(p);
  if (v.is_string() && v.get<std::string>() == "N/A") return std::nullopt;
  // nvbandwidth writes numbers as strings ("55.4321"); accept plain numbers too.
  std::optional<double> d = v.is_number()   ? std::optional<double>(v.get<double>())
                            : v.is_string() ? parse_double(v.get<std::string>())
                                            : std::nullopt;
  if (!d || *d < 0) r.fail(p, "a bandwidth in GB/s >= 0 or \"N/A\"");
  return d;
}

}  // namespace

NvbandwidthOutput parse_nvbandwidth_json(std::string_view text, const std::string& file) {
  const json doc = parse_json_text(text, file);
  const JsonReader r(doc, file);
  r.object_at("");
  if (!r.find("/nvbandwidth"))
    r.fail("/nvbandwidth", "nvbandwidth's JSON (nvbandwidth -j): an object \"nvbandwidth\"");
  const std::string root = "/nvbandwidth";
  r.object_at(root);
  NvbandwidthOutput out;
  out.file = file;
  if (const json* e = r.find(root + "/error");
      e && !(e->is_string() && e->get<std::string>().empty())) {
    r.fail(root + "/error", "no error (nvbandwidth reported: " +
                                printable(e->is_string() ? e->get<std::string>() : e->dump()) +
                                ")");
  }
  out.version = printable(r.string_at(root + "/version"), 32);
  if (const json* d = r.find(root + "/Driver Version"); d && d->is_string())
    out.driver_version = printable(d->get<std::string>(), 32);
  if (const json* c = r.find(root + "/CUDA Runtime Version"); c && c->is_number_integer())
    out.cuda_runtime_version = std::to_string(c->get<long long>());
  const json& list = r.array_at(root + "/GPU Device list");
  if (list.empty()) r.fail(root + "/GPU Device list", "at least one GPU");
  for (std::size_t i = 0; i < list.size(); ++i) {
    auto [gpu, host] = device_entry(r, root + "/GPU Device list/" + std::to_string(i), i);
    out.gpus.push_back(gpu);
    if (out.hostname.empty()) out.hostname = host;
  }
  if (!r.find(root + "/testcases"))
    r.fail(root + "/testcases",
           "the testcases list (absent: nvbandwidth stopped before its first test)");
  const json& testcases = r.array_at(root + "/testcases");
  if (testcases.empty()) r.fail(root + "/testcases", "at least one testcase");
  for (std::size_t t = 0; t < testcases.size(); ++t) {
    const std::string p = root + "/testcases/" + std::to_string(t);
    NvbandwidthTestcase tc;
    tc.pointer = p;
    tc.name = printable(r.string_at(p + "/name"), 96);
    tc.status = printable(r.string_at(p + "/status"), 32);
    if (const json* e = r.find(p + "/error"); e && e->is_string())
      tc.error = printable(e->get<std::string>(), 200);
    if (tc.status == "Running") {
      r.fail(p + "/status", "a finished testcase (\"Running\": nvbandwidth died during " + tc.name +
                                ", the file is partial)");
    }
    if (tc.status == "Passed") {
      tc.description = printable(r.string_at(p + "/bandwidth_description"), 200);
      const json& rows = r.array_at(p + "/bandwidth_matrix");
      if (rows.empty()) r.fail(p + "/bandwidth_matrix", "at least one row");
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::string rp = p + "/bandwidth_matrix/" + std::to_string(i);
        const json& row = r.array_at(rp);
        std::vector<std::optional<double>> values;
        for (std::size_t j = 0; j < row.size(); ++j)
          values.push_back(cell(r, rp + "/" + std::to_string(j)));
        if (values.size() != out.gpus.size()) {
          r.fail(rp, "one column per GPU (" + std::to_string(out.gpus.size()) + "), found " +
                         std::to_string(values.size()));
        }
        tc.matrix.push_back(std::move(values));
      }
    }
    out.testcases.push_back(std::move(tc));
  }
  return out;
}

}  // namespace fabricgate::import
