#include "harness/store/sqlite_store.hpp"

#include <sqlite3.h>

#include <unordered_map>

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

class SqliteStore final : public ResultsStore {
 public:
  SqliteStore(const std::filesystem::path& file, const std::string& display)
      : ResultsStore(display) {
    std::error_code ec;
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
    if (sqlite3_open_v2(file.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
      const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      db_ = nullptr;
      throw StoreError("results store " + display + ": cannot open (" + why + ")");
    }
    sqlite3_busy_timeout(db_, 120000);
    exec("PRAGMA journal_mode = WAL");
    exec("PRAGMA synchronous = NORMAL");  // with WAL: a crash loses at most the last commit, never
                                          // half of one
    exec("PRAGMA foreign_keys = ON");
    migrate();
  }
  ~SqliteStore() override { sqlite3_close(db_); }
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  void record_all(const std::vector<StoredRun>& runs) override {
    Transaction t(*this, true);
    Statement drop(db_, "DELETE FROM runs WHERE platform = ?1 AND run_id = ?2", display());
    Statement add_run(db_,
                      "INSERT INTO runs (platform, run_id, started_at, suite, scenario, complete, "
                      "fingerprint_digest, "
                      "facts, env, host_id, session_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                      "?9, ?10, ?11)",
                      display());
    Statement add_key(db_, "INSERT OR IGNORE INTO keys (key) VALUES (?1)", display());
    Statement find_key(db_, "SELECT id FROM keys WHERE key = ?1", display());
    Statement add_median(
        db_,
        "INSERT INTO medians (run, key, bytes, time_us, algbw, busbw, verdict) VALUES "
        "(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        display());
    for (const StoredRun& r : runs) {
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
          .text(11, r.session_id);
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
        "r.fingerprint_digest, r.facts, r.env, r.host_id, r.session_id "
        "FROM runs r WHERE r.platform = ?1 AND r.run_id != ?2";
    if (key_id >= 0)
      sql += " AND EXISTS (SELECT 1 FROM medians m WHERE m.run = r.id AND m.key = ?3)";
    if (!q.host.empty()) sql += " AND r.host_id = ?5";
    if (!q.started_before.empty()) sql += " AND r.started_at < ?6";
    sql += " ORDER BY r.started_at DESC, r.run_id DESC LIMIT ?4";
    Statement s(db_, sql, display());
    s.text(1, q.platform)
        .text(2, q.exclude_run_id)
        .integer(4, q.last > 0 ? static_cast<long long>(q.last) : -1);
    if (key_id >= 0) s.integer(3, key_id);
    if (!q.host.empty()) s.text(5, q.host);
    if (!q.started_before.empty()) s.text(6, q.started_before);
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
    std::reverse(out.begin(), out.end());
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

  void migrate() {
    Transaction t(*this, true);
    bool fresh = false;
    {  // finished before any DDL: an open SELECT on sqlite_master would lock the schema
      Statement has(
          db_,
          "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
          display());
      has.step();
      fresh = has.column_integer(0) == 0;
    }
    if (fresh) {
      for (const std::string& s : create_current_schema(Dialect::sqlite)) exec(s);
    } else {
      for (const std::string& s : migrate_to_current(schema_version(), Dialect::sqlite, display()))
        exec(s);
    }
    t.commit();
  }

  sqlite3* db_ = nullptr;
  std::unordered_map<std::string, long long> key_ids_;
};

}  // namespace

std::unique_ptr<ResultsStore> open_sqlite_store(const std::filesystem::path& file,
                                                const std::string& display) {
  return std::make_unique<SqliteStore>(file, display);
}

}  // namespace fabricgate::store
