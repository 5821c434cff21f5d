#include "harness/store/postgres_store.hpp"

#include <libpq-fe.h>
#include <poll.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <unordered_map>

namespace fabricgate::store {

namespace {

using nlohmann::json;

// Advisory lock key for schema changes: any constant shared by every fabricgate ("fgstore1").
constexpr long long kSchemaLock = 0x6667'7374'6f72'6531LL;

class Result {
 public:
  explicit Result(PGresult* r) : r_(r) {}
  ~Result() { PQclear(r_); }
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  Result(Result&& other) noexcept : r_(other.r_) { other.r_ = nullptr; }
  Result& operator=(Result&&) = delete;
  PGresult* get() const { return r_; }
  int rows() const { return PQntuples(r_); }
  std::string text(int row, int col) const { return PQgetvalue(r_, row, col); }
  bool null(int row, int col) const { return PQgetisnull(r_, row, col) != 0; }
  long long integer(int row, int col) const {
    return std::strtoll(PQgetvalue(r_, row, col), nullptr, 10);
  }
  double real(int row, int col) const { return std::strtod(PQgetvalue(r_, row, col), nullptr); }

 private:
  PGresult* r_;
};

// A PostgreSQL text[] literal: {"a","b"} with backslash and quote escaped.
std::string text_array(const std::vector<std::string>& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    out += '"';
    for (const char c : values[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

// One field of COPY's text format.
void copy_field(std::string& line, const std::string& value) {
  for (const char c : value) {
    switch (c) {
      case '\\': line += "\\\\"; break;
      case '\t': line += "\\t"; break;
      case '\n': line += "\\n"; break;
      case '\r': line += "\\r"; break;
      default: line += c;
    }
  }
}

std::string number(double v) { return fmt::format("{:.17g}", v); }

void ignore_notice(void*, const char*) {}

class PostgresStore final : public ResultsStore {
 public:
  PostgresStore(const std::string& conninfo, const std::string& display, Access access,
                std::chrono::seconds timeout)
      : ResultsStore(display), access_(access), timeout_(timeout) {
    connect(conninfo);
    try {
      PQsetNoticeProcessor(conn_, ignore_notice, nullptr);
      // The server's own bound on each statement (and on a lock wait inside one).
      exec(fmt::format("SET statement_timeout = {}", timeout_ms()), {});
      if (access_ == Access::write) {
        migrate();
      } else {
        check_readable();
      }
    } catch (...) {
      PQfinish(conn_);  // the destructor does not run for a constructor that throws
      conn_ = nullptr;
      throw;
    }
  }
  ~PostgresStore() override {
    if (conn_ != nullptr) PQfinish(conn_);
  }
  PostgresStore(const PostgresStore&) = delete;
  PostgresStore& operator=(const PostgresStore&) = delete;

  void record_all(const std::vector<StoredRun>& runs) override {
    if (access_ == Access::read)
      throw std::logic_error("results store opened for reading was asked to record");
    Transaction t(*this);
    for (const StoredRun& r : runs) record_one(r);
    t.commit();
  }

  std::vector<StoredRun> runs(const RunQuery& q) override {
    Transaction t(*this, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    std::string sql =
        "SELECT r.id, r.run_id, r.started_at, r.suite, r.scenario, r.complete, "
        "r.fingerprint_digest, r.facts, r.env, r.host_id, r.session_id, r.host_seal, r.nodes "
        "FROM runs r WHERE r.platform = $1 AND r.run_id <> $2";
    if (!q.key.empty()) {
      sql +=
          " AND EXISTS (SELECT 1 FROM medians m JOIN keys k ON k.id = m.key WHERE m.run = r.id AND "
          "k.key = $3)";
    } else {
      sql += " AND $3 = ''";
    }
    // Empty filters match everything, so the parameter list keeps one shape.
    sql += " AND ($4 = '' OR r.host_id = $4) AND ($5 = '' OR r.started_at < $5)";
    sql += " AND ($6 = '' OR r.host_seal <> '') AND ($7 = '' OR strpos(r.nodes, $7) > 0)";
    sql += " AND ($8 = '' OR r.run_id = $8)";
    sql += q.oldest ? " ORDER BY r.started_at ASC, r.run_id ASC"
                    : " ORDER BY r.started_at DESC, r.run_id DESC";
    if (q.last > 0) sql += " LIMIT " + std::to_string(q.last);
    const Result header =
        exec(sql, {q.platform, q.exclude_run_id, q.key, q.host, q.started_before,
                   q.sealed_only ? "1" : "", q.node.empty() ? "" : json(q.node).dump(), q.run_id});
    std::vector<StoredRun> out(static_cast<std::size_t>(header.rows()));
    std::unordered_map<long long, std::size_t> slot;
    std::vector<std::string> ids;
    for (int i = 0; i < header.rows(); ++i) {
      StoredRun& r = out[static_cast<std::size_t>(i)];
      r.platform = q.platform;
      slot[header.integer(i, 0)] = static_cast<std::size_t>(i);
      ids.push_back(header.text(i, 0));
      r.run_id = header.text(i, 1);
      r.started_at = header.text(i, 2);
      r.suite = header.text(i, 3);
      r.scenario = header.text(i, 4);
      r.complete = header.integer(i, 5) != 0;
      r.fingerprint_digest = header.text(i, 6);
      r.host_id = header.text(i, 9);
      r.session_id = header.text(i, 10);
      r.host_seal = header.text(i, 11);
      if (const json nodes = json::parse(header.text(i, 12), nullptr, false); nodes.is_array()) {
        for (const json& n : nodes)
          if (n.is_string()) r.nodes.push_back(n.get<std::string>());
      }
      r.facts = json::parse(header.text(i, 7), nullptr, false);
      if (r.facts.is_discarded()) r.facts = json::object();
      const json env = json::parse(header.text(i, 8), nullptr, false);
      if (env.is_object()) {
        for (const auto& [name, value] : env.items()) {
          if (value.is_string()) r.env[name] = value.get<std::string>();
        }
      }
    }
    if (!out.empty()) {
      std::string msql =
          "SELECT m.run, k.key, m.bytes, m.time_us, m.algbw, m.busbw, m.verdict FROM medians m "
          "JOIN keys k ON k.id = "
          "m.key WHERE m.run = ANY($1::bigint[])";
      msql += q.key.empty() ? " AND $2 = ''" : " AND k.key = $2";
      msql += " ORDER BY m.run, m.key";  // a stable order: key ids
      std::string id_array = "{";
      for (std::size_t i = 0; i < ids.size(); ++i) id_array += (i ? "," : "") + ids[i];
      id_array += "}";
      const Result m = exec(msql, {id_array, q.key});
      for (int i = 0; i < m.rows(); ++i) {
        StoredMedian sm;
        sm.key = m.text(i, 1);
        sm.bytes = static_cast<std::uint64_t>(m.integer(i, 2));
        sm.time_us = m.real(i, 3);
        sm.algbw_GBps = m.real(i, 4);
        if (!m.null(i, 5)) sm.busbw_GBps = m.real(i, 5);
        sm.verdict = m.text(i, 6);
        out[slot.at(m.integer(i, 0))].medians.push_back(std::move(sm));
      }
    }
    t.commit();
    if (!q.oldest) std::reverse(out.begin(), out.end());  // oldest first
    return out;
  }

  std::vector<std::string> platforms() override {
    const Result r = exec("SELECT DISTINCT platform FROM runs ORDER BY platform", {});
    std::vector<std::string> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(r.text(i, 0));
    return out;
  }

  std::size_t run_count(const std::string& platform) override {
    const Result r = exec("SELECT count(*) FROM runs WHERE platform = $1", {platform});
    return static_cast<std::size_t>(r.integer(0, 0));
  }

  void record_label(const FindingLabel& l) override {
    if (access_ == Access::read)
      throw std::logic_error("results store opened for reading was asked to record");
    Transaction t(*this);
    exec(
        "INSERT INTO labels (platform, run_id, subject, label, who, note, labelled_at) VALUES "
        "($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (platform, run_id, subject) DO UPDATE SET label "
        "= EXCLUDED.label, who = EXCLUDED.who, note = EXCLUDED.note, labelled_at = "
        "EXCLUDED.labelled_at",
        {l.platform, l.run_id, l.subject, l.label, l.who, l.note, l.labelled_at});
    t.commit();
  }

  std::vector<FindingLabel> labels(const std::string& platform) override {
    const Result r = exec(
        "SELECT run_id, subject, label, who, note, labelled_at FROM labels WHERE platform = $1 "
        "ORDER BY labelled_at, run_id, subject",
        {platform});
    std::vector<FindingLabel> out;
    for (int i = 0; i < r.rows(); ++i)
      out.push_back({platform, r.text(i, 0), r.text(i, 1), r.text(i, 2), r.text(i, 3), r.text(i, 4),
                     r.text(i, 5)});
    return out;
  }

  int schema_version() override {
    const Result r = exec("SELECT version FROM schema_version", {});
    return r.rows() > 0 ? static_cast<int>(r.integer(0, 0)) : 0;
  }

 private:
  class Transaction {
   public:
    explicit Transaction(PostgresStore& store, const char* begin = "BEGIN") : store_(store) {
      store_.exec(begin, {});
    }
    ~Transaction() {
      // A connection dropped after a timeout has nothing to roll back (the server does it).
      if (!done_ && store_.conn_ != nullptr && PQstatus(store_.conn_) == CONNECTION_OK &&
          !store_.dropped_)
        PQclear(PQexec(store_.conn_, "ROLLBACK"));
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit() {
      store_.exec("COMMIT", {});
      done_ = true;
    }

   private:
    PostgresStore& store_;
    bool done_ = false;
  };

  static std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    for (char& c : s) {
      if (c == '\n' || c == '\t') c = ' ';
    }
    return s;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw StoreError("results store " + display() + ": " + what + ": " +
                     trimmed(PQerrorMessage(conn_)));
  }

  long long timeout_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(timeout_).count();
  }

  std::string bound_text() const {
    return fmt::format(
        "no answer within {} s (the store timeout; FABRICGATE_STORE_TIMEOUT sets it)",
        timeout_.count());
  }

  // Waits until the socket is ready for `events` or the deadline passes (false).
  bool wait_socket(short events, std::chrono::steady_clock::time_point deadline) const {
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      pollfd p{PQsocket(conn_), events, 0};
      const int n = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
      if (n > 0) return true;
      if (n < 0 && errno != EINTR) return true;  // let libpq report the socket's error
    }
  }

  // libpq's nonblocking connection, polled against one deadline: connect_timeout alone does
  // not bound a server that accepts the TCP connection and never answers the startup packet.
  void connect(const std::string& conninfo) {
    const auto deadline = std::chrono::steady_clock::now() + timeout_;
    conn_ = PQconnectStart(conninfo.c_str());
    if (conn_ == nullptr)
      throw StoreError("results store " + display() + ": cannot connect (out of memory)");
    PostgresPollingStatusType state = PGRES_POLLING_WRITING;
    while (PQstatus(conn_) != CONNECTION_BAD && state != PGRES_POLLING_OK &&
           state != PGRES_POLLING_FAILED) {
      if (!wait_socket(state == PGRES_POLLING_READING ? POLLIN : POLLOUT, deadline)) {
        PQfinish(conn_);
        conn_ = nullptr;
        throw StoreError("results store " + display() + ": cannot connect (" + bound_text() + ")");
      }
      state = PQconnectPoll(conn_);
    }
    if (PQstatus(conn_) != CONNECTION_OK) {
      const std::string why = trimmed(PQerrorMessage(conn_));
      PQfinish(conn_);
      conn_ = nullptr;
      throw StoreError("results store " + display() + ": cannot connect (" + why + ")");
    }
  }

  // One statement, its result awaited against the client-side deadline (the server's
  // statement_timeout plus a margin for the answer to travel). On expiry the statement is
  // cancelled and the connection dropped: what it would answer later can no longer be trusted.
  Result exec(const std::string& sql, const std::vector<std::string>& params) {
    if (dropped_) throw StoreError("results store " + display() + ": connection dropped");
    std::vector<const char*> values;
    for (const std::string& p : params) values.push_back(p.c_str());
    const std::string what = sql.substr(0, sql.find(' ', 12));
    if (PQsendQueryParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr,
                          values.data(), nullptr, nullptr, 0) != 1)
      fail(what);
    const auto deadline = std::chrono::steady_clock::now() + timeout_ + std::chrono::seconds(5);
    while (PQflush(conn_) == 1) {
      if (!wait_socket(POLLOUT, deadline)) give_up(what);
    }
    PGresult* first = nullptr;
    for (;;) {
      while (PQisBusy(conn_)) {
        if (!wait_socket(POLLIN, deadline)) {
          PQclear(first);
          give_up(what);
        }
        if (PQconsumeInput(conn_) != 1) {
          PQclear(first);
          fail(what);
        }
      }
      PGresult* next = PQgetResult(conn_);
      if (next == nullptr) break;
      const ExecStatusType st = PQresultStatus(next);
      if (first == nullptr) {
        first = next;
      } else {
        PQclear(next);
      }
      if (st == PGRES_COPY_IN) break;  // the caller sends the data; no more results until then
    }
    Result r(first);
    const ExecStatusType status = PQresultStatus(r.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && status != PGRES_COPY_IN) {
      fail(what);
    }
    return r;
  }

  [[noreturn]] void give_up(const std::string& what) {
    if (PGcancel* cancel = PQgetCancel(conn_)) {
      char ignored[256];
      PQcancel(cancel, ignored, sizeof ignored);
      PQfreeCancel(cancel);
    }
    dropped_ = true;
    throw StoreError("results store " + display() + ": " + what + ": " + bound_text());
  }

  void record_one(const StoredRun& r) {
    if (r.host_seal.empty()) {
      // The record `run` sealed stands: a re-judgement or import never unseals it.
      const Result sealed = exec(
          "SELECT 1 FROM runs WHERE platform = $1 AND run_id = $2 AND host_seal <> '' FOR UPDATE",
          {r.platform, r.run_id});
      if (sealed.rows() > 0) return;
    }
    exec("DELETE FROM runs WHERE platform = $1 AND run_id = $2", {r.platform, r.run_id});
    const Result id = exec(
        "INSERT INTO runs (platform, run_id, started_at, suite, scenario, complete, "
        "fingerprint_digest, facts, env, host_id, session_id, runner_counters, host_seal, nodes) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id",
        {r.platform, r.run_id, r.started_at, r.suite, r.scenario, r.complete ? "1" : "0",
         r.fingerprint_digest, r.facts.dump(), json(r.env).dump(), r.host_id, r.session_id,
         r.runner_counters.dump(), r.host_seal, json(r.nodes).dump()});
    const std::string run_ref = id.text(0, 0);
    std::vector<std::string> keys;
    keys.reserve(r.medians.size());
    for (const StoredMedian& m : r.medians) keys.push_back(m.key);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    const std::string array = text_array(keys);
    exec(
        "INSERT INTO keys (key) SELECT k FROM unnest($1::text[]) AS k ORDER BY k ON CONFLICT (key) "
        "DO NOTHING",
        {array});
    const Result ids = exec("SELECT key, id FROM keys WHERE key = ANY($1::text[])", {array});
    std::unordered_map<std::string, std::string> key_ids;
    for (int i = 0; i < ids.rows(); ++i) key_ids.emplace(ids.text(i, 0), ids.text(i, 1));
    exec("COPY medians (run, key, bytes, time_us, algbw, busbw, verdict) FROM STDIN", {});
    std::string buffer;
    auto flush = [&](bool force) {
      if (buffer.empty() || (!force && buffer.size() < (1u << 20))) return;
      if (PQputCopyData(conn_, buffer.data(), static_cast<int>(buffer.size())) != 1)
        fail("COPY medians");
      buffer.clear();
    };
    for (const StoredMedian& m : r.medians) {
      buffer += run_ref + '\t' + key_ids.at(m.key) + '\t' + std::to_string(m.bytes) + '\t' +
                number(m.time_us) + '\t' + number(m.algbw_GBps) + '\t' +
                (m.busbw_GBps ? number(*m.busbw_GBps) : "\\N") + '\t';
      copy_field(buffer, m.verdict);
      buffer += '\n';
      flush(false);
    }
    flush(true);
    if (PQputCopyEnd(conn_, nullptr) != 1) fail("COPY medians");
    const auto deadline = std::chrono::steady_clock::now() + timeout_ + std::chrono::seconds(5);
    while (PQflush(conn_) == 1) {
      if (!wait_socket(POLLOUT, deadline)) give_up("COPY medians");
    }
    while (PQisBusy(conn_)) {
      if (!wait_socket(POLLIN, deadline)) give_up("COPY medians");
      if (PQconsumeInput(conn_) != 1) fail("COPY medians");
    }
    const Result done(PQgetResult(conn_));
    if (PQresultStatus(done.get()) != PGRES_COMMAND_OK) fail("COPY medians");
    while (PGresult* more = PQgetResult(conn_)) PQclear(more);
  }

  void migrate() {
    Transaction t(*this);
    exec("SELECT pg_advisory_xact_lock(" + std::to_string(kSchemaLock) + ")", {});
    const Result has = exec("SELECT to_regclass('schema_version') IS NOT NULL", {});
    if (has.text(0, 0) != "t") {
      for (const std::string& s : create_current_schema(Dialect::postgresql)) exec(s, {});
    } else {
      for (const std::string& s :
           migrate_to_current(schema_version(), Dialect::postgresql, display()))
        exec(s, {});
    }
    t.commit();
  }

  // Read access: no lock taken, no table created or altered.
  void check_readable() {
    const Result has = exec("SELECT to_regclass('schema_version') IS NOT NULL", {});
    if (has.text(0, 0) != "t")
      throw StoreError("results store " + display() +
                       ": no fabricgate store in this database yet (a write command, `fabricgate "
                       "store import`, `run` or `compare`, creates it; read commands never do)");
    const int found = schema_version();
    if (found != kSchemaVersion) {
      if (found > kSchemaVersion || found < 1)
        migrate_to_current(found, Dialect::postgresql, display());  // throws its message
      throw StoreError("results store " + display() + ": schema v" + std::to_string(found) +
                       " is older than this fabricgate's (v" + std::to_string(kSchemaVersion) +
                       "); a write command (`fabricgate store import DIR --store ...`, `run` or "
                       "`compare`) migrates it, read commands never do");
    }
  }

  PGconn* conn_ = nullptr;
  Access access_;
  std::chrono::seconds timeout_;
  bool dropped_ = false;
};

}  // namespace

std::unique_ptr<ResultsStore> open_postgres_store(const std::string& conninfo,
                                                  const std::string& display, Access access,
                                                  std::chrono::seconds timeout) {
  return std::make_unique<PostgresStore>(conninfo, display, access, timeout);
}

}  // namespace fabricgate::store
