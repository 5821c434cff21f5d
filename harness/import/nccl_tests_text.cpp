#include "harness/import/nccl_tests_text.hpp"

#include <cmath>

#include "harness/import/source_text.hpp"

namespace fabricgate::import {

namespace {

// The columns of one placement, as the column header announced them.
struct Layout {
  bool seen = false;
  std::size_t per_side = 4;  // time algbw busbw #wrong (+ i_min i_max i_p99 i_cv% with -P)
  bool timestamp = false;    // -T: a date and time after the in-place columns
};

std::string_view strip_comment(std::string_view line) {
  line.remove_prefix(1);  // '#'
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  return line;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

class TextParser {
 public:
  TextParser(std::string_view text, const std::string& file)
      : lines_(split_lines(text)), file_(file) {
    out_.file = file;
    out_.format = "text";
  }

  NcclTestsOutput parse() {
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      line_no_ = static_cast<int>(i) + 1;
      const std::string_view line = lines_[i];
      if (blank(line)) continue;
      if (line.front() == '#') {
        comment(strip_comment(line));
      } else {
        body(line);
      }
    }
    finish();
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { fail_at_line(file_, line_no_, what); }

  int int_after(const std::vector<std::string_view>& w, std::size_t i, const char* field) const {
    if (i + 1 >= w.size()) fail(std::string("a number after \"") + field + "\"");
    const auto v = parse_integer(w[i + 1]);
    if (!v || *v < 0 || *v > 1000000000)
      fail(std::string("a count after \"") + field + "\", found \"" + printable(w[i + 1]) + "\"");
    return static_cast<int>(*v);
  }

  void comment(std::string_view c) {
    if (starts_with(c, "nccl-tests version ")) return version_line(c);
    if (!version_seen_) {
      // Comments before the header (e.g. a job script's banner) are not nccl-tests output.
      return;
    }
    if (starts_with(c, "Collective test starting:")) {
      const auto w = split_words(c.substr(25));
      if (w.size() != 1) fail("the test program's name after \"Collective test starting:\"");
      out_.program = std::string(w[0]);
    } else if (starts_with(c, "nThread ")) {
      config_line(c);
    } else if (starts_with(c, "Rank ")) {
      device_line(c);
    } else if (starts_with(c, "size ") || c == "size") {
      column_header(c);
    } else if (starts_with(c, "Avg bus bandwidth")) {
      // P03: an average over sizes describes no message size; kept only to say it was ignored.
      const auto colon = c.find(':');
      if (colon != std::string_view::npos) {
        const auto w = split_words(c.substr(colon + 1));
        if (!w.empty()) out_.average_busbw_ignored = parse_double(w[0]);
      }
    } else if (starts_with(c, "Collective test concluded:")) {
      const auto w = split_words(c.substr(26));
      if (w.size() != 1 || w[0] != out_.program) {
        fail("\"Collective test concluded: " + printable(out_.program) +
             "\" (the program that started)");
      }
      concluded_ = true;
    }
    // Other comments ("Using devices", "(B) (elements)", "out-of-place in-place", "Out of bounds
    // values", "Blocking Enabled", "Writing JSON output to ...") carry nothing the gate uses.
  }

  void version_line(std::string_view c) {
    if (version_seen_) {
      fail(
          "one nccl-tests output per file (this is a second \"# nccl-tests version\" header): "
          "import each launch from its own file");
    }
    version_seen_ = true;
    const auto w = split_words(c);
    if (w.size() < 3) fail("\"# nccl-tests version X.Y.Z nccl-headers=N nccl-library=N\"");
    out_.tool_version = printable(w[2], 32);
    for (std::size_t i = 3; i < w.size(); ++i) {
      if (starts_with(w[i], "nccl-library=")) {
        const auto code = parse_integer(w[i].substr(13));
        if (!code || *code <= 0)
          fail("a version code after nccl-library=, found \"" + printable(w[i]) + "\"");
        out_.nccl_version = nccl_version_from_code(*code);
      }
    }
  }

  void config_line(std::string_view c) {
    const auto w = split_words(c);
    bool threads = false, gpus = false, iters = false;
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (w[i] == "nThread") out_.nthreads = int_after(w, i, "nThread"), threads = true;
      if (w[i] == "nGpus") out_.ngpus = int_after(w, i, "nGpus"), gpus = true;
      if (w[i] == "validation:") out_.validation = int_after(w, i, "validation:");
      if (w[i] == "graph:") out_.graph = int_after(w, i, "graph:");
      if (w[i] == "iters:") {
        const std::string_view before = i > 0 ? w[i - 1] : std::string_view{};
        const int v = int_after(w, i, "iters:");
        if (before == "warmup") {
          out_.warmup_iters = v;
        } else if (before == "agg") {
          out_.agg_iters = v;
        } else {
          out_.iters = v;
          iters = true;
        }
      }
    }
    if (!threads || !gpus || !iters)
      fail("\"# nThread N nGpus N ... iters: N ...\" (the launch configuration)");
    if (out_.nthreads < 1 || out_.ngpus < 1) fail("nThread and nGpus of at least 1");
    config_seen_ = true;
  }

  // "Rank  0 Group  0 Pid   2373 on         vm device  0 [0000:00:06] NVIDIA H200"
  void device_line(std::string_view c) {
    const auto w = split_words(c);
    const char* shape = "\"#  Rank R Group G Pid P on HOST device D [BUS] GPU NAME\"";
    if (w.size() < 10 || w[0] != "Rank" || w[2] != "Group" || w[4] != "Pid" || w[6] != "on" ||
        w[8] != "device")
      fail(shape);
    const auto rank = parse_integer(w[1]);
    const auto pid = parse_integer(w[5]);
    const auto dev = parse_integer(w[9]);
    if (!rank || !pid || !dev || *rank < 0 || *dev < 0 || *rank > 1000000 || *dev > 1000000)
      fail(shape);
    NcclTestsDevice d;
    d.rank = static_cast<int>(*rank);
    d.pid = *pid;
    d.host = printable(w[7], 64);
    d.device = static_cast<int>(*dev);
    const auto open = c.find('[');
    const auto close = c.find(']');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
      fail(shape);
    d.pci_bus_id = printable(c.substr(open + 1, close - open - 1), 32);
    std::string_view name = c.substr(close + 1);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    d.gpu_name = printable(name, 64);
    if (d.rank != static_cast<int>(out_.devices.size())) {
      fail("device lines in rank order, expected rank " + std::to_string(out_.devices.size()) +
           ", found " + std::to_string(d.rank));
    }
    out_.devices.push_back(std::move(d));
  }

  void column_header(std::string_view c) {
    const auto w = split_words(c);
    std::size_t times = 0, i_min = 0;
    for (const auto word : w) {
      if (word == "time" || word == "cputime") ++times;
      if (word == "cputime") out_.cpu_time = true;
      if (word == "i_min") ++i_min;
      if (word == "timestamp") layout_.timestamp = true;
    }
    if (w.size() < 5 || w[1] != "count" || w[2] != "type" || w[3] != "redop" || w[4] != "root" ||
        times != 2) {
      fail(
          "the column header \"# size count type redop root time algbw busbw #wrong time algbw "
          "busbw #wrong\"");
    }
    layout_.per_side = i_min == 2 ? 8 : 4;
    layout_.seen = true;
  }

  NcclTestsFigures side(const std::vector<std::string_view>& w, std::size_t at) const {
    NcclTestsFigures f;
    const auto time = parse_double(w[at]);
    const auto alg = parse_double(w[at + 1]);
    const auto bus = parse_double(w[at + 2]);
    if (!time || *time <= 0) fail("a time in microseconds > 0, found \"" + printable(w[at]) + "\"");
    if (!alg || *alg < 0) fail("an algbw in GB/s >= 0, found \"" + printable(w[at + 1]) + "\"");
    if (!bus || *bus < 0) fail("a busbw in GB/s >= 0, found \"" + printable(w[at + 2]) + "\"");
    f.time_us = *time;
    f.algbw_GBps = *alg;
    f.busbw_GBps = *bus;
    if (w[at + 3] != "N/A") {
      const auto wrong = parse_double(w[at + 3]);  // printed with %g: large counts read "1e+06"
      if (!wrong || *wrong < 0 || *wrong > 9e18 || std::floor(*wrong) != *wrong) {
        fail("#wrong as a count or N/A, found \"" + printable(w[at + 3]) + "\"");
      }
      f.wrong = static_cast<long long>(*wrong);
    }
    return f;
  }

  void body(std::string_view line) {
    // A job's own output before the header (banners, module loads) and after the end (epilogues)
    // is not the tool's; inside the table every line must be the tool's.
    if (!version_seen_ || concluded_) return;
    const auto w = split_words(line);
    const bool numeric = !w.empty() && parse_integer(w[0]).has_value();
    if (numeric && layout_.seen && !concluded_) return row(w);
    // NCCL_DEBUG output interleaves with the table ("host:pid:tid [0] NCCL INFO ...").
    if (line.find(" NCCL INFO ") != std::string_view::npos ||
        line.find(" NCCL WARN ") != std::string_view::npos)
      return;
    if (numeric && !layout_.seen) fail("the column header before the first result row");
    fail("a result row or a \"#\" comment, found \"" + printable(line) + "\"");
  }

  void row(const std::vector<std::string_view>& w) {
    const std::size_t both = 5 + 2 * layout_.per_side;
    const std::size_t in_place_only =
        5 + layout_.per_side;  // trace replay prints no out-of-place part
    const std::size_t extra = layout_.timestamp ? 2 : 0;  // "YYYY-MM-DD HH:MM:SS"
    const std::size_t n = w.size();
    const bool full = n == both || (extra && n == both + extra);
    const bool ip_only = n == in_place_only || (extra && n == in_place_only + extra);
    if (!full && !ip_only) {
      fail(std::to_string(both) +
           " columns (size count type redop root, then out-of-place and in-place " +
           std::to_string(layout_.per_side) + " each), found " + std::to_string(n));
    }
    NcclTestsRow r;
    r.line = line_no_;
    const auto bytes = parse_integer(w[0]);
    const auto count = parse_integer(w[1]);
    const auto root = parse_integer(w[4]);
    if (!bytes || *bytes < 0) fail("a size in bytes, found \"" + printable(w[0]) + "\"");
    if (!count || *count < 0) fail("an element count, found \"" + printable(w[1]) + "\"");
    if (!root || *root < -1 || *root > 1000000)
      fail("a root rank or -1, found \"" + printable(w[4]) + "\"");
    r.bytes = static_cast<std::uint64_t>(*bytes);
    r.count = static_cast<std::uint64_t>(*count);
    r.type = printable(w[2], 32);
    r.redop = printable(w[3], 32);
    r.root = static_cast<int>(*root);
    if (full) {
      r.out_of_place = side(w, 5);
      r.in_place = side(w, 5 + layout_.per_side);
    } else {
      r.in_place = side(w, 5);
    }
    out_.rows.push_back(std::move(r));
  }

  void finish() {
    line_no_ = static_cast<int>(lines_.size());
    if (!version_seen_)
      fail_at_line(file_, 1,
                   "an nccl-tests output (2.13 or later) starting with \"# nccl-tests version\"");
    if (out_.program.empty()) fail("a \"# Collective test starting: <name>_perf\" line");
    if (!config_seen_) fail("a \"# nThread N nGpus N ...\" line");
    if (out_.devices.empty()) fail("\"#  Rank ...\" device lines (one per GPU)");
    if (!layout_.seen || out_.rows.empty())
      fail("result rows: the output ends before the table (a partial file)");
    if (!concluded_) {
      fail("\"# Collective test concluded: " + printable(out_.program) +
           "\": the output is cut off (or the test failed) after " +
           std::to_string(out_.rows.size()) + " rows");
    }
    out_.nranks = static_cast<int>(out_.devices.size());
  }

  std::vector<std::string_view> lines_;
  const std::string& file_;
  NcclTestsOutput out_;
  Layout layout_;
  int line_no_ = 0;
  bool version_seen_ = false;
  bool config_seen_ = false;
  bool concluded_ = false;
};

}  // namespace

std::string nccl_version_from_code(long long code) {
  const long long major = code >= 10000 ? code / 10000 : code / 1000;
  const long long minor = code >= 10000 ? (code % 10000) / 100 : (code % 1000) / 100;
  const long long patch = code % 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

NcclTestsOutput parse_nccl_tests_text(std::string_view text, const std::string& file) {
  return TextParser(text, file).parse();
}

}  // namespace fabricgate::import
