#include "harness/report/printable_comparison.hpp"

#include "core/text_escape.hpp"

namespace fabricgate::report {

namespace {

void clean(std::string& s) { s = printable(s); }

void clean(std::vector<std::string>& list) {
  for (std::string& s : list) clean(s);
}

void clean(std::vector<verdict::Change>& changes) {
  for (verdict::Change& ch : changes) {
    clean(ch.what);
    clean(ch.before);
    clean(ch.after);
  }
}

void clean(Capture& capture) {
  clean(capture.path);
  clean(capture.nccl_version);
  clean(capture.network);
  clean(capture.transports);
  std::map<std::string, std::string> env;
  for (const auto& [name, value] : capture.env_overrides) env[printable(name)] = printable(value);
  capture.env_overrides = std::move(env);
}

void clean(verdict::KeyComparison& k) {
  clean(k.key);
  clean(k.family);
  clean(k.backend);
  clean(k.op);
  clean(k.reason);
  for (auto* j : {k.judgement ? &*k.judgement : nullptr, k.fleet ? &*k.fleet : nullptr}) {
    if (!j) continue;
    clean(j->size_class);
    clean(j->why_metric);
    clean(j->band_scope);  // names the host whose launches judged: a store row's id
    clean(j->reference);
  }
  clean(k.changes);
  for (Note& n : k.notes) {
    clean(n.id);
    clean(n.level);
    clean(n.text);
  }
}

}  // namespace

verdict::Comparison printable_copy(const verdict::Comparison& original) {
  verdict::Comparison c = original;
  clean(c.run_id);
  clean(c.platform);
  clean(c.run_source);
  clean(c.baseline_source);
  clean(c.create_baseline_command);
  clean(c.incomplete_reason);
  clean(c.identity_changes);
  clean(c.fingerprint_changes);
  clean(c.fingerprint_note);
  for (verdict::VersionChange& v : c.version_changes) {
    clean(v.component);
    clean(v.before);
    clean(v.after);
  }
  clean(c.capture);
  clean(c.warnings);
  clean(c.multiple_comparison);
  for (verdict::KeyComparison& k : c.keys) clean(k);
  for (verdict::ClusterFinding& f : c.cluster_findings) {
    clean(f.id);
    clean(f.node);
    clean(f.field);
    clean(f.text);
    clean(f.key);
  }
  for (verdict::RankTable& t : c.rank_tables) {
    clean(t.key);
    clean(t.why);
    for (RankTiming& r : t.ranks) {
      clean(r.host);
      clean(r.cpu_set);
    }
  }
  clean(c.node_layout);
  // Fields a run file, a store row or another GPU user sets: host id and name, the software
  // changes, the runner evidence (a foreign process's name is its /proc/PID/comm, which any user
  // of the GPU chooses, ESC included), node actions, the confirmation's note.
  clean(c.host_id);
  clean(c.host_name);
  clean(c.software_changes);
  clean(c.node_actions);
  clean(c.confirmation_run);
  clean(c.confirmation_note);
  clean(c.roofline_policy);
  clean(c.gross_change_source);
  for (verdict::ForeignGpuProcess& p : c.runner_evidence.foreign_processes) {
    clean(p.name);
    clean(p.gpu_uuid);
    clean(p.launch);
    clean(p.seen);
  }
  clean(c.runner_evidence.throttling);
  clean(c.runner_evidence.unread);
  return c;
}

}  // namespace fabricgate::report
