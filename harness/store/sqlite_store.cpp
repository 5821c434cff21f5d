#include "harness/store/sqlite_store.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <thread>
#include <unordered_map>

#include "core/errors.hpp"

namespace fabricgate::store {

namespace {

using nlohmann::json;

class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, const std::string& display)
      : db_(db), display_(display) {
    if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
        SQLITE_OK) {
      throw StoreError("results store " + display + ": " + sqlite3_errmsg(db));
    }
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& text(int i, const std::string& v) {
    check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Statement& integer(int i, long long v) {
    check(sqlite3_bind_int64(stmt_, i, v));
    return *this;
  }
  Statement& real(int i, double v) {
    check(sqlite3_bind_double(stmt_, i, v));
    return *this;
  }
  Statement& null(int i) {
    check(sqlite3_bind_null(stmt_, i));
    return *this;
  }
  // True while a row is there.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw StoreError("results store " + display_ + ": " + sqlite3_errmsg(db_));
  }
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  long long column_integer(int i) const { return sqlite3_column_int64(stmt_, i); }
  double column_real(int i) const { return sqlite3_column_double(stmt_, i); }
  bool column_null(int i) const { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }
  std::string column_text(int i) const {
    const auto* p = sqlite3_column_text(stmt_, i);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i)))
             : "";
  }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK) throw StoreError("results store " + display_ + ": " + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  const std::string& display_;
};

// A path as an SQLite URI filename (RFC 3986 percent-encoding of everything but unreserved
// characters and '/'), for the immutable=1 fallback of a read-only directory.
std::string uri_path(const std::filesystem::path& file) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : std::filesystem::absolute(file).string()) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      out += ch;
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 0xf];
    }
  }
  return out;
}

constexpr int kBusyTimeoutMs = 120000;

// What a database file holds, judged before anything is written to it.
struct Shape {
  bool empty = false;   // no table at all: a new store (write access creates the schema)
  std::string foreign;  // why it is not a fabricgate store ("" when it is one)
  int version = 0;
};

class SqliteStore final : public ResultsStore {
 public:
  SqliteStore(const std::filesystem::path& file, const std::string& display, Access access)
      : ResultsStore(display), access_(access) {
    try {
      open_as(file, access);
    } catch (...) {
      sqlite3_close(db_);  // the destructor does not run for a constructor that throws
      throw;
    }
  }
  ~SqliteStore() override { sqlite3_close(db_); }
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

 private:
  void open_as(const std::filesystem::path& file, Access access) {
    std::error_code ec;
    if (access == Access::read) {
      // A store named for reading that is not there is a wrong argument (exit 2), not a broken
      // store; report and compare never get here without one (no store: no history).
      if (!std::filesystem::exists(file, ec))
        throw InputError(display(), "--store",
                         "an existing results store (a write command, `fabricgate store "
                         "import`, `run` or `compare`, creates one; read commands never do)");
      open(file.string(), SQLITE_OPEN_READONLY);
      try {
        check_readable(inspect());
      } catch (const StoreError&) {
        // A store in WAL mode whose directory is read-only cannot get its shared-memory file:
        // read it as immutable (nobody can write there either), else report the first error.
        const int code = sqlite3_extended_errcode(db_);
        if ((code & 0xff) != SQLITE_CANTOPEN && (code & 0xff) != SQLITE_READONLY) throw;
        sqlite3_close(db_);
        db_ = nullptr;
        open("file:" + uri_path(file) + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
        check_readable(inspect());
      }
      exec("PRAGMA foreign_keys = ON");
      return;
    }
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
    open(file.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    migrate();
    use_wal();
    exec("PRAGMA synchronous = NORMAL");  // with WAL: a crash loses at most the last commit, never
                                          // half of one
    exec("PRAGMA foreign_keys = ON");
  }

 public:
  void record_all(const std::vector<StoredRun>& runs) override {
    if (access_ == Access::read)
      throw std::logic_error("results store opened for reading was asked to record");
    Transaction t(*this, true);
    Statement sealed(db_, "SELECT host_seal FROM runs WHERE platform = ?1 AND run_id = ?2",
                     display());
    Statement drop(db_, "DELETE FROM runs WHERE platform = ?1 AND run_id = ?2", display());
    Statement add_run(db_,
                      "INSERT INTO runs (platform, run_id, started_at, suite, scenario, complete, "
                      "fingerprint_digest, "
                      "facts, env, host_id, session_id, runner_counters, host_seal, nodes) VALUES "
                      "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                      display());
    Statement add_key(db_, "INSERT OR IGNORE INTO keys (key) VALUES (?1)", display());
    Statement find_key(db_, "SELECT id FROM keys WHERE key = ?1", display());
    Statement add_median(
        db_,
        "INSERT INTO medians (run, key, bytes, time_us, algbw, busbw, verdict) VALUES "
        "(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        display());
    for (const StoredRun& r : runs) {
      if (r.host_seal.empty()) {
        // The record `run` sealed stands: a re-judgement or import never unseals it.
        const bool keep =
            sealed.text(1, r.platform).text(2, r.run_id).step() && !sealed.column_text(0).empty();
        sealed.reset();
        if (keep) continue;
      }
      drop.text(1, r.platform).text(2, r.run_id).step();
      drop.reset();
      add_run.text(1, r.platform)
          .text(2, r.run_id)
          .text(3, r.started_at)
          .text(4, r.suite)
          .text(5, r.scenario);
      add_run.integer(6, r.complete ? 1 : 0)
          .text(7, r.fingerprint_digest)
          .text(8, r.facts.dump())
          .text(9, json(r.env).dump())
          .text(10, r.host_id)
          .text(11, r.session_id)
          .text(12, r.runner_counters.dump())
          .text(13, r.host_seal)
          .text(14, json(r.nodes).dump());
      add_run.step();
      add_run.reset();
      const long long run_id = sqlite3_last_insert_rowid(db_);
      for (const StoredMedian& m : r.medians) {
        auto known = key_ids_.find(m.key);
        if (known == key_ids_.end()) {
          add_key.text(1, m.key).step();
          add_key.reset();
          find_key.text(1, m.key);
          if (!find_key.step())
            throw StoreError("results store " + display() + ": key " + m.key + " vanished");
          known = key_ids_.emplace(m.key, find_key.column_integer(0)).first;
          find_key.reset();
        }
        add_median.integer(1, run_id)
            .integer(2, known->second)
            .integer(3, static_cast<long long>(m.bytes));
        add_median.real(4, m.time_us).real(5, m.algbw_GBps);
        if (m.busbw_GBps) {
          add_median.real(6, *m.busbw_GBps);
        } else {
          add_median.null(6);
        }
        add_median.text(7, m.verdict).step();
        add_median.reset();
      }
    }
    t.commit();
  }

  std::vector<StoredRun> runs(const RunQuery& q) override {
    Transaction t(*this, false);
    long long key_id = -1;
    if (!q.key.empty()) {
      Statement k(db_, "SELECT id FROM keys WHERE key = ?1", display());
      if (!k.text(1, q.key).step()) return {};
      key_id = k.column_integer(0);
    }
    std::string sql =
        "SELECT r.id, r.run_id, r.started_at, r.suite, r.scenario, r.complete, "
        "r.fingerprint_digest, r.facts, r.env, " +
        std::string(version_ >= 3 ? "r.host_id, r.session_id" : "'', ''") +  // v2: read as is
        (version_ >= 5 ? ", r.host_seal" : ", ''") + (version_ >= 6 ? ", r.nodes" : ", '[]'") +
        " FROM runs r WHERE r.platform = ?1 AND r.run_id != ?2";
    if (key_id >= 0)
      sql += " AND EXISTS (SELECT 1 FROM medians m WHERE m.run = r.id AND m.key = ?3)";
    if (!q.host.empty()) sql += version_ >= 3 ? " AND r.host_id = ?5" : " AND ?5 = ''";
    if (!q.started_before.empty()) sql += " AND r.started_at < ?6";
    if (q.sealed_only) sql += version_ >= 5 ? " AND r.host_seal <> ''" : " AND 0";
    if (!q.node.empty()) sql += version_ >= 6 ? " AND instr(r.nodes, ?7) > 0" : " AND 0";
    if (!q.run_id.empty()) sql += " AND r.run_id = ?8";
    sql += q.oldest ? " ORDER BY r.started_at ASC, r.run_id ASC LIMIT ?4"
                    : " ORDER BY r.started_at DESC, r.run_id DESC LIMIT ?4";
    Statement s(db_, sql, display());
    s.text(1, q.platform)
        .text(2, q.exclude_run_id)
        .integer(4, q.last > 0 ? static_cast<long long>(q.last) : -1);
    if (key_id >= 0) s.integer(3, key_id);
    if (!q.host.empty()) s.text(5, q.host);
    if (!q.started_before.empty()) s.text(6, q.started_before);
    if (!q.node.empty() && version_ >= 6) s.text(7, json(q.node).dump());
    if (!q.run_id.empty()) s.text(8, q.run_id);
    std::vector<StoredRun> out;
    std::vector<long long> ids;
    while (s.step()) {
      StoredRun r;
      r.platform = q.platform;
      ids.push_back(s.column_integer(0));
      r.run_id = s.column_text(1);
      r.started_at = s.column_text(2);
      r.suite = s.column_text(3);
      r.scenario = s.column_text(4);
      r.complete = s.column_integer(5) != 0;
      r.fingerprint_digest = s.column_text(6);
      r.host_id = s.column_text(9);
      r.session_id = s.column_text(10);
      r.host_seal = s.column_text(11);
      if (const json nodes = json::parse(s.column_text(12), nullptr, false); nodes.is_array()) {
        for (const json& n : nodes)
          if (n.is_string()) r.nodes.push_back(n.get<std::string>());
      }
      r.facts = json::parse(s.column_text(7), nullptr, false);
      if (r.facts.is_discarded()) r.facts = json::object();
      const json env = json::parse(s.column_text(8), nullptr, false);
      if (env.is_object()) {
        for (const auto& [name, value] : env.items()) {
          if (value.is_string()) r.env[name] = value.get<std::string>();
        }
      }
      out.push_back(std::move(r));
    }
    std::string medians_sql =
        "SELECT k.key, m.bytes, m.time_us, m.algbw, m.busbw, m.verdict FROM medians m JOIN keys k "
        "ON k.id = m.key "
        "WHERE m.run = ?1";
    if (key_id >= 0) medians_sql += " AND m.key = ?2";
    Statement m(db_, medians_sql, display());
    for (std::size_t i = 0; i < out.size(); ++i) {
      m.integer(1, ids[i]);
      if (key_id >= 0) m.integer(2, key_id);
      while (m.step()) {
        StoredMedian sm;
        sm.key = m.column_text(0);
        sm.bytes = static_cast<std::uint64_t>(m.column_integer(1));
        sm.time_us = m.column_real(2);
        sm.algbw_GBps = m.column_real(3);
        if (!m.column_null(4)) sm.busbw_GBps = m.column_real(4);
        sm.verdict = m.column_text(5);
        out[i].medians.push_back(std::move(sm));
      }
      m.reset();
    }
    t.commit();
    if (!q.oldest) std::reverse(out.begin(), out.end());  // oldest first
    return out;
  }

  std::vector<std::string> platforms() override {
    Statement s(db_, "SELECT DISTINCT platform FROM runs ORDER BY platform", display());
    std::vector<std::string> out;
    while (s.step()) out.push_back(s.column_text(0));
    return out;
  }

  std::size_t run_count(const std::string& platform) override {
    Statement s(db_, "SELECT count(*) FROM runs WHERE platform = ?1", display());
    s.text(1, platform).step();
    return static_cast<std::size_t>(s.column_integer(0));
  }

  void record_label(const FindingLabel& l) override {
    if (access_ == Access::read)
      throw std::logic_error("results store opened for reading was asked to record");
    Transaction t(*this, true);
    Statement add(db_,
                  "INSERT OR REPLACE INTO labels (platform, run_id, subject, label, who, note, "
                  "labelled_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                  display());
    add.text(1, l.platform)
        .text(2, l.run_id)
        .text(3, l.subject)
        .text(4, l.label)
        .text(5, l.who)
        .text(6, l.note)
        .text(7, l.labelled_at)
        .step();
    t.commit();
  }

  std::vector<FindingLabel> labels(const std::string& platform) override {
    if (version_ < 7) return {};
    Statement s(db_,
                "SELECT run_id, subject, label, who, note, labelled_at FROM labels WHERE platform "
                "= ?1 ORDER BY labelled_at, run_id, subject",
                display());
    s.text(1, platform);
    std::vector<FindingLabel> out;
    while (s.step())
      out.push_back({platform, s.column_text(0), s.column_text(1), s.column_text(2),
                     s.column_text(3), s.column_text(4), s.column_text(5)});
    return out;
  }

  int schema_version() override {
    Statement s(db_, "SELECT version FROM schema_version", display());
    const int version = s.step() ? static_cast<int>(s.column_integer(0)) : 0;
    while (s.step()) {
    }
    return version;
  }

 private:
  // Rolls back unless committed: an exception (or a kill) never leaves half a run.
  class Transaction {
   public:
    Transaction(SqliteStore& store, bool write) : store_(store) {
      store_.exec(write ? "BEGIN IMMEDIATE" : "BEGIN");
    }
    ~Transaction() {
      if (!done_) sqlite3_exec(store_.db_, "ROLLBACK", nullptr, nullptr, nullptr);
      if (!done_)
        store_.key_ids_.clear();  // ids cached during the rolled-back transaction are gone
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit() {
      store_.exec("COMMIT");
      done_ = true;
    }

   private:
    SqliteStore& store_;
    bool done_ = false;
  };

  void exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      const std::string why = error ? error : sqlite3_errmsg(db_);
      sqlite3_free(error);
      throw StoreError("results store " + display() + ": " + why);
    }
  }

  void open(const std::string& name, int flags) {
    // SQLITE_OPEN_URI only where this code built the URI: a store path is always a plain file
    // name (store_location refuses "file:" names), never parameters for SQLite.
    if (sqlite3_open_v2(name.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
      const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      db_ = nullptr;
      throw StoreError("results store " + display() + ": cannot open (" + why + ")");
    }
    // Before anything else: every statement below, the first included, waits for a concurrent
    // writer instead of failing with "database is locked".
    sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  }

  Shape inspect() {
    Shape shape;
    std::vector<std::string> tables;
    {
      Statement t(db_,
                  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                  "'sqlite\\_%' ESCAPE '\\' ORDER BY name",
                  display());
      while (t.step()) tables.push_back(t.column_text(0));
    }
    if (tables.empty()) {
      shape.empty = true;
      return shape;
    }
    static const std::vector<std::string> ours = {"keys", "labels", "medians", "runs",
                                                  "schema_version"};
    for (const std::string& name : tables) {
      if (std::find(ours.begin(), ours.end(), name) == ours.end())
        shape.foreign += (shape.foreign.empty() ? "it holds table " : ", ") + name;
    }
    if (!shape.foreign.empty()) return shape;
    for (const char* needed : {"schema_version", "runs", "medians"}) {
      if (std::find(tables.begin(), tables.end(), needed) == tables.end()) {
        shape.foreign = std::string("it has no ") + needed + " table";
        return shape;
      }
    }
    if (columns("schema_version") != std::vector<std::string>{"version"}) {
      shape.foreign = "its schema_version table is not fabricgate's (columns: " +
                      join(columns("schema_version")) + ")";
      return shape;
    }
    for (const char* column : {"platform", "run_id", "started_at", "suite", "complete"}) {
      const auto have = columns("runs");
      if (std::find(have.begin(), have.end(), column) == have.end()) {
        shape.foreign = std::string("its runs table has no ") + column + " column";
        return shape;
      }
    }
    Statement v(
        db_,
        "SELECT count(*), min(version), max(version), min(typeof(version)) FROM schema_version",
        display());
    v.step();
    if (v.column_integer(0) != 1 || v.column_text(3) != "integer") {
      shape.foreign = "its schema_version table holds " + std::to_string(v.column_integer(0)) +
                      " rows, not one integer version";
      return shape;
    }
    shape.version = static_cast<int>(v.column_integer(1));
    return shape;
  }

  std::vector<std::string> columns(const std::string& table) {
    Statement c(db_, "SELECT name FROM pragma_table_info(?1) ORDER BY cid", display());
    c.text(1, table);
    std::vector<std::string> out;
    while (c.step()) out.push_back(c.column_text(0));
    return out;
  }

  static std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  }

  [[noreturn]] void refuse_foreign(const Shape& shape) const {
    throw StoreError("results store " + display() + ": not a fabricgate results store (" +
                     shape.foreign + "); left untouched, give another --store");
  }

  // Read access: the store as it is, or a clear refusal; nothing is ever written.
  void check_readable(const Shape& shape) {
    if (shape.empty)
      throw StoreError("results store " + display() +
                       ": an empty database, no store yet (a write command creates it)");
    if (!shape.foreign.empty()) refuse_foreign(shape);
    if (shape.version > kSchemaVersion || shape.version < 1) {
      migrate_to_current(shape.version, Dialect::sqlite, display());  // throws the usual message
    }
    if (shape.version < 2) {
      throw StoreError("results store " + display() + ": schema v" + std::to_string(shape.version) +
                       " is too old to read as it is; a write command (`fabricgate store import "
                       "DIR --store ...`, `run` or `compare`) migrates it, read commands never do");
    }
    version_ = shape.version;
  }

  void migrate() {
    Transaction t(*this, true);  // BEGIN IMMEDIATE: one writer judges and creates at a time
    const Shape shape = inspect();
    if (!shape.foreign.empty()) refuse_foreign(shape);
    if (shape.empty) {
      for (const std::string& s : create_current_schema(Dialect::sqlite)) exec(s);
    } else {
      for (const std::string& s : migrate_to_current(shape.version, Dialect::sqlite, display()))
        exec(s);
    }
    t.commit();
    version_ = kSchemaVersion;
  }

  // WAL is a property of the file, set once by whichever writer comes first. Changing the
  // journal mode can answer SQLITE_BUSY without calling the busy handler while another
  // connection reads, so it is retried here within the same bound.
  void use_wal() {
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
    for (;;) {
      {
        Statement mode(db_, "PRAGMA journal_mode", display());
        if (mode.step() && mode.column_text(0) == "wal") return;
      }
      char* error = nullptr;
      const int rc = sqlite3_exec(db_, "PRAGMA journal_mode = WAL", nullptr, nullptr, &error);
      const std::string why = error ? error : sqlite3_errmsg(db_);
      sqlite3_free(error);
      // OK: WAL, or the mode this file system allows (the store works either way).
      if (rc == SQLITE_OK) return;
      const bool busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
      if (!busy || std::chrono::steady_clock::now() > give_up)
        throw StoreError("results store " + display() + ": " + why);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  Access access_;
  int version_ = kSchemaVersion;
  sqlite3* db_ = nullptr;
  std::unordered_map<std::string, long long> key_ids_;
};

}  // namespace

std::unique_ptr<ResultsStore> open_sqlite_store(const std::filesystem::path& file,
                                                const std::string& display, Access access) {
  return std::make_unique<SqliteStore>(file, display, access);
}

}  // namespace fabricgate::store
