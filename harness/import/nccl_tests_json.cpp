#include "harness/import/nccl_tests_json.hpp"

#include <cmath>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "harness/import/nccl_tests_text.hpp"
#include "harness/import/source_text.hpp"

namespace fabricgate::import {

namespace {

int small_count(const JsonReader& r, const std::string& p, long long max = 1000000000) {
  const long long v = r.integer_at(p);
  if (v < 0 || v > max) r.fail(p, "a count in [0, " + std::to_string(max) + "]");
  return static_cast<int>(v);
}

// nccl-tests writes "nan" (a string) for a figure it could not compute.
double figure(const JsonReader& r, const std::string& p, bool positive) {
  const json& v = r.at(p);
  if (!v.is_number()) r.fail(p, positive ? "a number > 0" : "a number >= 0");
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < 0 || (positive && d == 0))
    r.fail(p, positive ? "a number > 0" : "a number >= 0");
  return d;
}

std::optional<NcclTestsFigures> placement(const JsonReader& r, const std::string& p,
                                          bool& cpu_time) {
  const json* v = r.find(p);
  if (!v || v->is_null()) return std::nullopt;
  r.object_at(p);
  NcclTestsFigures f;
  const bool gpu_time = r.find(p + "/time") != nullptr;
  if (!gpu_time && !r.find(p + "/cpu_time")) r.fail(p + "/time", "a time in microseconds");
  if (!gpu_time) cpu_time = true;
  f.time_us = figure(r, p + (gpu_time ? "/time" : "/cpu_time"), true);
  f.algbw_GBps = figure(r, p + "/alg_bw", false);
  f.busbw_GBps = figure(r, p + "/bus_bw", false);
  const json* wrong = r.find(p + "/nwrong");
  if (wrong && !wrong->is_null()) {
    const double w = figure(r, p + "/nwrong", false);
    if (std::floor(w) != w || w > 9e18) r.fail(p + "/nwrong", "a count of wrong elements or null");
    f.wrong = static_cast<long long>(w);
  }
  return f;
}

// "/opt/nccl-tests/build/all_reduce_perf" -> "all_reduce_perf"; builds named *_perf_mpi too.
std::string program_from_argv0(const JsonReader& r) {
  const std::string argv0 = r.string_at("/args/0");
  std::string name =
      argv0.substr(argv0.find_last_of('/') == std::string::npos ? 0 : argv0.find_last_of('/') + 1);
  if (name.size() > 4 && name.substr(name.size() - 4) == "_mpi") name.resize(name.size() - 4);
  if (name.size() <= 5 || name.substr(name.size() - 5) != "_perf") {
    r.fail("/args/0",
           "the nccl-tests program (<collective>_perf), found \"" + printable(argv0) + "\"");
  }
  return printable(name, 64);
}

}  // namespace

bool looks_like_json(std::string_view text) {
  const auto i = text.find_first_not_of(" \t\r\n");
  return i != std::string_view::npos && text[i] == '{';
}

NcclTestsOutput parse_nccl_tests_json(std::string_view text, const std::string& file) {
  const json doc = parse_json_text(text, file);
  const JsonReader r(doc, file);
  r.object_at("");
  NcclTestsOutput out;
  out.file = file;
  out.format = "json";
  out.json_format_version = std::to_string(r.integer_at("/version"));
  if (r.find("/start_time")) out.measured_at = printable(r.string_at("/start_time"), 64);
  out.program = program_from_argv0(r);
  const long long code = r.integer_at("/nccl_version");
  if (code <= 0) r.fail("/nccl_version", "NCCL's version code (e.g. 22803)");
  out.nccl_version = nccl_version_from_code(code);

  r.object_at("/config");
  out.nthreads = small_count(r, "/config/nthreads", 1024);
  out.ngpus = small_count(r, "/config/ngpus", 1024);
  if (out.nthreads < 1 || out.ngpus < 1) r.fail("/config", "nthreads and ngpus of at least 1");
  out.warmup_iters = small_count(r, "/config/warmup_iters");
  out.iters = small_count(r, "/config/iterations");
  out.agg_iters = small_count(r, "/config/aggregated_iterations");
  out.validation = small_count(r, "/config/validation");
  out.graph = small_count(r, "/config/graph");
  // nccl-tests parses one device line per process into this list (its first GPU): the GPUs a
  // process drives are config/ngpus x nthreads.
  const json& devices = r.array_at("/config/devices");
  if (devices.empty()) r.fail("/config/devices", "one entry per process");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const std::string p = "/config/devices/" + std::to_string(i);
    NcclTestsDevice d;
    d.rank = small_count(r, p + "/rank");
    d.pid = r.integer_at(p + "/pid");
    d.host = printable(r.string_at(p + "/hostname"), 64);
    d.device = small_count(r, p + "/device");
    d.pci_bus_id = printable(r.string_at(p + "/device_hex"), 32);
    d.gpu_name = printable(r.string_at(p + "/device_info"), 64);
    out.devices.push_back(std::move(d));
  }
  out.nranks = static_cast<int>(devices.size()) * out.nthreads * out.ngpus;

  if (!r.find("/results"))
    r.fail("/results", "the results list (absent: nccl-tests stopped before its table)");
  const json& results = r.array_at("/results");
  if (results.empty()) r.fail("/results", "at least one result");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::string p = "/results/" + std::to_string(i);
    NcclTestsRow row;
    const long long bytes = r.integer_at(p + "/size");
    const long long count = r.integer_at(p + "/count");
    if (bytes < 0) r.fail(p + "/size", "a size in bytes");
    if (count < 0) r.fail(p + "/count", "an element count");
    row.bytes = static_cast<std::uint64_t>(bytes);
    row.count = static_cast<std::uint64_t>(count);
    row.type = printable(r.string_at(p + "/type"), 32);
    row.redop = printable(r.string_at(p + "/redop"), 32);
    // The root is written as the table prints it: a right-aligned string ("    -1").
    const std::string root_text = r.string_at(p + "/root");
    const auto w = split_words(root_text);
    const auto root = w.size() == 1 ? parse_integer(w[0]) : std::nullopt;
    if (!root || *root < -1 || *root > 1000000) r.fail(p + "/root", "a root rank or -1");
    row.root = static_cast<int>(*root);
    row.out_of_place = placement(r, p + "/out_of_place", out.cpu_time);
    row.in_place = placement(r, p + "/in_place", out.cpu_time);
    if (!row.out_of_place && !row.in_place) r.fail(p, "out_of_place or in_place figures");
    out.rows.push_back(std::move(row));
  }
  // The footer is written after the last size: without it the run did not finish.
  if (!r.find("/out_of_bounds"))
    r.fail("/out_of_bounds", "the footer written after the last size (the run did not finish)");
  if (!r.find("/end_time"))
    r.fail("/end_time", "the end time written when nccl-tests exits (the run did not finish)");
  if (const json* avg = r.find("/average_bus_bandwidth/bandwidth"); avg && avg->is_number()) {
    out.average_busbw_ignored = avg->get<double>();
  }
  return out;
}

}  // namespace fabricgate::import
