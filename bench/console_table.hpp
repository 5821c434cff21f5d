#pragma once
// Where Google Benchmark's console table (mean / median / stddev / cv per benchmark) goes. Under
// fabricgate run it is a file in the run directory: the harness prints its own verdict, and the
// table, four rows per benchmark, would bury it (`fabricgate run --verbose` prints the file).
#include <fstream>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

namespace fabricgate::bench {

class ConsoleTable {
 public:
  // `requested`: --console-table ("" = default, "-" = stdout). `gbench_json`: --gbench-json; when
  // given and nothing else is asked, the table goes to bench-console.txt beside it. Throws
  // InputError naming the flag when the file cannot be written.
  ConsoleTable(const std::string& requested, const std::string& gbench_json);

  // The reporter to hand RunSpecifiedBenchmarks; nullptr means Google Benchmark's own (stdout,
  // honouring --benchmark_color).
  benchmark::BenchmarkReporter* reporter() { return reporter_.get(); }

 private:
  std::ofstream file_;
  std::unique_ptr<benchmark::ConsoleReporter> reporter_;
};

}  // namespace fabricgate::bench
