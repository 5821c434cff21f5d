#include "harness/report/dashboard_site.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/report/history_change_points.hpp"
#include "harness/report/html_page_head.hpp"
#include "harness/report/svg_plot.hpp"
#include "harness/report/trend_change_points.hpp"
#include "harness/verdict/comparison.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::report {

namespace {

std::string site_esc(const std::string& s) { return xml_escape(s); }

// The dashboard's own rules, after the shared ones (html_page_head.cpp: the HTML report's policy,
// nothing is fetched, nothing runs); links go only to the site's pages.
constexpr const char* kSiteStyles = R"(h3{font-size:14px;font-family:monospace}th{text-align:left}
.v-fail{color:#b00;font-weight:bold}.v-pass{color:#080}.v-none{color:#777}.v-unjudged{color:#a60}
.worse{color:#b00}.better{color:#080}
section.key{display:inline-block;vertical-align:top;margin:0 12px 12px 0}section.key svg{border:1px solid #eee}
)";

constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#bcbd22"};
constexpr std::size_t kPaletteSize = sizeof kPalette / sizeof kPalette[0];

bool name_fails_gate(const std::string& name) {
  for (int v = static_cast<int>(verdict::Verdict::invalid);
       v <= static_cast<int>(verdict::Verdict::skipped); ++v) {
    const auto verdict = static_cast<verdict::Verdict>(v);
    if (name == verdict::verdict_name(verdict)) return verdict::verdict_fails_gate(verdict);
  }
  return false;
}

std::string verdict_class(const std::string& verdict) {
  return verdict == "FAIL"         ? "v-fail"
         : verdict == "PASS"       ? "v-pass"
         : verdict == "NOT JUDGED" ? "v-unjudged"
                                   : "v-none";
}

// "FAIL 3, NOISY 4, PASS 100": the run's verdicts counted, failing ones first.
std::string verdict_counts(const DashboardRun& r) {
  std::map<std::string, std::size_t> counts;
  for (const auto& [key, v] : r.verdicts)
    if (!v.empty()) ++counts[v];
  std::vector<std::pair<std::string, std::size_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return name_fails_gate(a.first) && !name_fails_gate(b.first);
  });
  std::string out;
  for (const auto& [v, n] : sorted) out += (out.empty() ? "" : ", ") + fmt::format("{} {}", v, n);
  return out.empty() ? "not compared" : out;
}

std::string short_time(const std::string& iso) {
  return iso.size() >= 16 ? iso.substr(5, 5) + " " + iso.substr(11, 5) : iso;
}

// The platform comes from store rows that anyone with write access sets: it names a page file
// and an href only when it is a safe name (letters, digits, '.', '_', '-'); any other text gets
// a name made of its hash, so no row can write outside --out or reach an attribute unescaped.
std::string platform_file(const std::string& platform) {
  if (is_safe_name(platform)) return "platform-" + platform + ".html";
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a: a stable name, not a security property
  for (const unsigned char c : platform) h = (h ^ c) * 1099511628211ull;
  return fmt::format("platform-x{:016x}.html", h);
}

struct HostSeries {
  std::string host;
  KeyHistory history;
  std::vector<HistoryChangePoint> steps;
};

struct KeyTrend {
  std::string key;
  std::vector<HostSeries> hosts;
  bool stepped() const {
    return std::any_of(hosts.begin(), hosts.end(),
                       [](const HostSeries& h) { return !h.steps.empty(); });
  }
};

struct PlatformView {
  const DashboardPlatform* platform = nullptr;
  std::vector<IndexedRun> window;              // every run, oldest first
  std::vector<std::string> hosts;              // in order of first appearance
  std::map<std::string, std::string> host_of;  // run id -> host
  std::vector<KeyTrend> keys;                  // stepped keys first, then by name
};

PlatformView view_of(const DashboardPlatform& p, std::size_t max_keys) {
  PlatformView v;
  v.platform = &p;
  std::set<std::string> keys;
  std::map<std::string, std::vector<IndexedRun>> runs_of_host;
  for (const DashboardRun& r : p.runs) {
    v.window.push_back(r.run);
    v.host_of[r.run.run_id] = r.host;
    if (std::find(v.hosts.begin(), v.hosts.end(), r.host) == v.hosts.end())
      v.hosts.push_back(r.host);
    runs_of_host[r.host].push_back(r.run);
    for (const auto& [key, m] : r.run.keys) keys.insert(key);
  }
  // A host's runs are a series of their own: two machines on two levels are not a step.
  for (const std::string& key : keys) {
    KeyTrend t{key, {}};
    for (const std::string& host : v.hosts) {
      KeyHistory h = key_history(runs_of_host[host], key, HistoryMetric::automatic, 0);
      if (h.points.size() < 2) continue;
      std::vector<HistoryChangePoint> steps = history_change_points(h, stats::ChangePointOptions{});
      t.hosts.push_back({host, std::move(h), std::move(steps)});
    }
    if (!t.hosts.empty()) v.keys.push_back(std::move(t));
  }
  std::stable_sort(v.keys.begin(), v.keys.end(), [](const KeyTrend& a, const KeyTrend& b) {
    return a.stepped() && !b.stepped();
  });
  if (v.keys.size() > max_keys) v.keys.resize(max_keys);
  return v;
}

std::string metric_label(verdict::Metric m) {
  return m == verdict::Metric::time_us      ? "time (us, down = better)"
         : m == verdict::Metric::busbw_GBps ? "busbw (GB/s, up = better)"
                                            : "algbw (GB/s, up = better)";
}

std::string trend_svg(const PlatformView& v, const KeyTrend& t, std::size_t index) {
  std::vector<std::string> dates;
  for (const IndexedRun& r : v.window) dates.push_back(short_time(r.started_at));
  const verdict::Metric metric = t.hosts.front().history.metric;
  const bool is_time = metric == verdict::Metric::time_us;
  svg::LinePlot plot;
  plot.id = fmt::format("trend-{}", index);
  plot.css_class = "plot-trend";
  plot.title = t.key;
  plot.x_label = "run (start time, UTC)";
  plot.y_label = metric_label(metric);
  plot.x_scale = svg::ScaleKind::linear;
  plot.y_from_zero = false;
  plot.width = 560;
  plot.height = 300;
  plot.x_ticks = [dates](double x) {
    const long i = std::lround(x);
    return std::abs(x - static_cast<double>(i)) < 1e-6 && i >= 0 &&
                   static_cast<std::size_t>(i) < dates.size()
               ? dates[static_cast<std::size_t>(i)]
               : std::string();
  };
  plot.y_ticks = [](double y) { return fmt::format("{:.4g}", y); };
  std::map<std::string, std::size_t> index_of;
  for (std::size_t i = 0; i < v.window.size(); ++i) index_of[v.window[i].run_id] = i;
  std::vector<TrendSeries> stepped;
  for (const HostSeries& hs : t.hosts) {
    const auto host_at = std::find(v.hosts.begin(), v.hosts.end(), hs.host) - v.hosts.begin();
    svg::Series s;
    s.name = hs.host;
    s.css_class = "series-host";
    s.colour = kPalette[static_cast<std::size_t>(host_at) % kPaletteSize];
    for (const HistoryPoint& pt : hs.history.points) {
      const double x = static_cast<double>(index_of[pt.run_id]);
      s.points.push_back(
          {x, pt.value,
           pt.run_id + " on " + hs.host + ": " + verdict::format_metric(pt.value, is_time)});
    }
    plot.series.push_back(std::move(s));
    if (!hs.steps.empty()) stepped.push_back({t.key + " on " + hs.host, hs.history});
  }
  // Runs whose gate failed this key get a marker: the verdict beside the level.
  for (const DashboardRun& r : v.platform->runs) {
    const auto verdict = r.verdicts.find(t.key);
    const auto median = r.run.keys.find(t.key);
    if (verdict == r.verdicts.end() || !name_fails_gate(verdict->second) ||
        median == r.run.keys.end())
      continue;
    const double value = metric == verdict::Metric::time_us ? median->second.time_us
                         : metric == verdict::Metric::busbw_GBps
                             ? median->second.busbw_GBps.value_or(median->second.algbw_GBps)
                             : median->second.algbw_GBps;
    // No label: consecutive failing runs would print their verdicts over each other.
    plot.markers.push_back({static_cast<double>(index_of[r.run.run_id]), value, "",
                            r.run.run_id + ": " + verdict->second, "verdict-fail", "#d62728"});
  }
  plot.vertical_markers = trend_change_point_markers(stepped, v.window);
  return svg::render_line_plot(plot);
}

std::string page(const std::string& title, const std::string& body, const DashboardOptions& o) {
  return html_page_start(title, kSiteStyles) + body + "<footer>fabricgate dashboard from " +
         site_esc(o.source) + ", generated " + site_esc(o.generated_at) +
         ". Static: no script, nothing fetched.</footer>\n</body>\n</html>\n";
}

std::string join_findings(const std::vector<std::string>& findings) {
  std::string out;
  for (const std::string& f : findings) out += (out.empty() ? "" : "; ") + f;
  return out;
}

std::string runs_table(const PlatformView& v) {
  std::string out =
      "<table class=\"runs\"><tr><th>started (UTC)</th><th>run</th><th>host</th>"
      "<th>suite / scenario</th><th>verdict</th><th>keys</th><th>nodes blamed (severity)</th>"
      "</tr>\n";
  const auto& runs = v.platform->runs;
  for (auto it = runs.rbegin(); it != runs.rend(); ++it) {  // newest first
    const std::string verdict = run_verdict(*it);
    out += "<tr class=\"run\" data-run-id=\"" + site_esc(it->run.run_id) + "\" data-host=\"" +
           site_esc(it->host) + "\" data-verdict=\"" + site_esc(verdict) + "\"><td>" +
           site_esc(it->run.started_at) + "</td><td><code>" + site_esc(it->run.run_id) +
           "</code></td><td>" + site_esc(it->host) + "</td><td>" + site_esc(it->run.suite) + " / " +
           site_esc(it->run.scenario) + (it->run.complete ? "" : " (incomplete)") +
           "</td><td class=\"" + verdict_class(verdict) + "\">" + site_esc(verdict) + "</td><td>" +
           site_esc(verdict_counts(*it)) + "</td><td class=\"node-findings\">" +
           site_esc(join_findings(it->node_findings)) + "</td></tr>\n";
  }
  return out + "</table>\n";
}

std::string hosts_table(const PlatformView& v) {
  std::string out =
      "<table class=\"hosts\"><tr><th>host</th><th>runs</th><th>FAIL</th><th>PASS</th>"
      "<th>not judged</th><th>not gated</th><th>first run</th><th>latest run</th><th>latest "
      "verdict</th></tr>\n";
  for (const std::string& host : v.hosts) {
    std::size_t n = 0;
    std::map<std::string, std::size_t> by;
    const DashboardRun* first = nullptr;
    const DashboardRun* latest = nullptr;
    for (const DashboardRun& r : v.platform->runs) {
      if (r.host != host) continue;
      ++n;
      ++by[run_verdict(r)];
      if (first == nullptr) first = &r;
      latest = &r;
    }
    const std::string last_verdict = run_verdict(*latest);
    out += "<tr class=\"host\" data-host=\"" + site_esc(host) + "\"><td>" + site_esc(host) +
           "</td><td class=\"num\">" + fmt::format("{}", n) + "</td><td class=\"num\">" +
           fmt::format("{}", by["FAIL"]) + "</td><td class=\"num\">" +
           fmt::format("{}", by["PASS"]) + "</td><td class=\"num\">" +
           fmt::format("{}", by["NOT JUDGED"]) + "</td><td class=\"num\">" +
           fmt::format("{}", by["NOT GATED"] + by["NO BASELINE"]) + "</td><td>" +
           site_esc(first->run.started_at) + "</td><td><code>" + site_esc(latest->run.run_id) +
           "</code></td><td class=\"" + verdict_class(last_verdict) + "\">" +
           site_esc(last_verdict) + "</td></tr>\n";
  }
  return out + "</table>\n";
}

std::string change_table(const PlatformView& v) {
  std::string rows;
  for (std::size_t i = 0; i < v.keys.size(); ++i) {
    for (const HostSeries& hs : v.keys[i].hosts) {
      const bool is_time = hs.history.metric == verdict::Metric::time_us;
      for (const HistoryChangePoint& c : hs.steps) {
        rows += "<tr class=\"change\" data-key=\"" + site_esc(v.keys[i].key) + "\" data-host=\"" +
                site_esc(hs.host) + "\" data-run-id=\"" + site_esc(c.run_id) + "\"><td><a href=\"" +
                site_esc(platform_file(v.platform->platform)) + fmt::format("#k-{}", i) + "\">" +
                site_esc(v.keys[i].key) + "</a></td><td>" + site_esc(hs.host) + "</td><td><code>" +
                site_esc(c.run_id) + "</code></td><td>" + site_esc(c.started_at) +
                "</td><td class=\"" + (c.worse ? "worse" : "better") + "\">" +
                site_esc(verdict::format_metric(c.before, is_time) + " -> " +
                         verdict::format_metric(c.after, is_time) + ", " +
                         verdict::format_percent(c.ratio - 1) + (c.worse ? " worse" : " better")) +
                "</td><td class=\"num\">" + site_esc(verdict::format_p_value(c.p_value)) +
                "</td></tr>\n";
      }
    }
  }
  if (rows.empty()) return "<p class=\"no-change\">No change point in any key's trend.</p>\n";
  return "<table class=\"changes\"><tr><th>key</th><th>host</th><th>first run on the new "
         "level</th><th>started (UTC)</th><th>step</th><th>p</th></tr>\n" +
         rows + "</table>\n";
}

// "<p>The newest 1000 of 100000 runs ...</p>" when the bound left runs out, else "".
std::string shown_runs_text(const DashboardPlatform& p, const DashboardOptions& o) {
  if (p.stored_runs <= p.runs.size()) return "";
  return "<p class=\"bound\">" +
         site_esc(fmt::format(
             "The newest {} of the platform's {} stored runs (the default bound, --last {}; "
             "--last N for another, --all-runs for every run): trends, hosts, change points and "
             "precision cover these.",
             p.runs.size(), p.stored_runs, o.last)) +
         "</p>\n";
}

std::string platform_page(const PlatformView& v, const DashboardOptions& o) {
  const std::string& p = v.platform->platform;
  std::string body = "<h1>" + site_esc(p) +
                     "</h1>\n<p><a href=\"index.html\">all platforms</a> · " +
                     fmt::format("{} runs, {} hosts, {} keys with a trend", v.window.size(),
                                 v.hosts.size(), v.keys.size()) +
                     "; one series per host; vertical lines mark change points (the first run on "
                     "a new level), red markers a failing verdict.</p>\n" +
                     shown_runs_text(*v.platform, o);
  for (std::size_t i = 0; i < v.keys.size(); ++i) {
    const KeyTrend& t = v.keys[i];
    std::string change_runs;
    for (const HostSeries& hs : t.hosts)
      for (const HistoryChangePoint& c : hs.steps)
        change_runs += (change_runs.empty() ? "" : " ") + c.run_id;
    body += fmt::format("<section class=\"key\" id=\"k-{}\"", i) + " data-key=\"" +
            site_esc(t.key) + "\" data-change-runs=\"" + site_esc(change_runs) + "\">\n<h3>" +
            site_esc(t.key) + "</h3>\n" + trend_svg(v, t, i) + "\n</section>\n";
  }
  return page("fabricgate: " + p, body, o);
}

}  // namespace

std::string run_verdict(const DashboardRun& run) {
  if (!run.outcome.empty()) return run.outcome;
  bool compared = false;
  for (const auto& [key, v] : run.verdicts) {
    if (v.empty()) continue;
    if (name_fails_gate(v)) return "FAIL";
    compared = true;
  }
  return compared ? "PASS" : "NOT GATED";
}

std::string precision_text(const LabelPrecision& p) {
  std::string out;
  if (p.labelled() == 0) {
    out = fmt::format("No finding labelled in the last {} days", p.days);
  } else {
    const std::size_t right = p.real + p.expected;
    out = fmt::format(
        "Precision {:.0f} %: {} of {} labelled finding(s) real ({}) or expected ({}), {} false "
        "alarm(s), in the last {} days",
        100.0 * static_cast<double>(right) / static_cast<double>(p.labelled()), right, p.labelled(),
        p.real, p.expected, p.false_alarm, p.days);
  }
  return out + fmt::format(
                   "; {} failing run(s) in that time, {} with no label (`fabricgate ack --label "
                   "false-alarm|real|expected --run RUN_ID ...`).",
                   p.failing_runs, p.unlabelled_failing_runs);
}

std::vector<DashboardPage> render_dashboard(const std::vector<DashboardPlatform>& platforms,
                                            const DashboardOptions& options) {
  std::vector<DashboardPage> pages;
  std::size_t total = 0;
  for (const DashboardPlatform& p : platforms) total += p.runs.size();
  std::string index =
      "<h1>fabricgate dashboard</h1>\n<p>" +
      fmt::format("{} runs of {} platform(s)", total, platforms.size()) + " from <code>" +
      site_esc(options.source) +
      "</code>. Each run's verdict is the gate's outcome when it was recorded: PASS, FAIL, "
      "NOT JUDGED (exit 3: a busy or degraded runner, a runner unlike the fleet, an "
      "incomplete run) or NO BASELINE; NOT GATED runs were recorded without a comparison "
      "(imports).</p>\n";
  if (!options.acks_source.empty()) {
    index += "<h2 id=\"acks\">Acknowledged failures</h2>\n";
    if (options.active_acks.empty()) {
      index += "<p>None in force in <code>" + site_esc(options.acks_source) + "</code>.</p>\n";
    } else {
      index += "<p>In force in <code>" + site_esc(options.acks_source) +
               "</code>: these fail nothing until their expiry.</p>\n<ul class=\"acks\">\n";
      for (const std::string& a : options.active_acks) index += "<li>" + site_esc(a) + "</li>\n";
      index += "</ul>\n";
    }
  }
  for (const DashboardPlatform& p : platforms) {
    const PlatformView v = view_of(p, options.max_keys);
    index += "<h2 id=\"p-" + site_esc(p.platform) + "\">" + site_esc(p.platform) + "</h2>\n" +
             shown_runs_text(p, options) + "<p><a href=\"" + site_esc(platform_file(p.platform)) +
             "\">trends of every key</a></p>\n<p class=\"precision\">" +
             site_esc(precision_text(p.precision)) + "</p>\n<h3>Hosts</h3>\n" + hosts_table(v) +
             "<h3>Change points</h3>\n" + change_table(v) + "<h3>Runs</h3>\n" + runs_table(v);
    pages.push_back({platform_file(p.platform), platform_page(v, options)});
  }
  pages.insert(pages.begin(), {"index.html", page("fabricgate dashboard", index, options)});
  return pages;
}

}  // namespace fabricgate::report
