// The results store under the conditions a shared or hostile environment produces, through the
// real CLI: a PostgreSQL address that accepts and never answers (a real listener on loopback) or
// refuses, several writers creating one new SQLite file at once, foreign databases and old stores
// met by read commands, read-only files and directories, SQLite URI names, and a store that
// cannot be written while the run is judged.
#include <grp.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sqlite3.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "harness/store/schema.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::json;
using Clock = std::chrono::steady_clock;

struct Result {
  int code = -1;
  std::string out;  // stdout and stderr in the order they were written (one file)
  double seconds = 0;
};

// Starts the CLI with stdout and stderr into one file; `uid` > 0 runs it as that user.
pid_t spawn(const std::vector<std::string>& args, const fs::path& log,
            const std::vector<std::pair<std::string, std::string>>& env = {}, uid_t uid = 0) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  dup2(fd, 1);
  dup2(fd, 2);
  unsetenv("GITHUB_STEP_SUMMARY");
  unsetenv("FABRICGATE_STORE");
  for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
  if (uid > 0) {
    if (setgroups(0, nullptr) != 0 || setgid(uid) != 0 || setuid(uid) != 0) _exit(97);
  }
  std::vector<char*> argv;
  std::string cli = FABRICGATE_CLI;
  argv.push_back(cli.data());
  std::vector<std::string> copy = args;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  _exit(98);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Waits at most `limit` (then kills: a hang is a failure, never a stuck test).
int reap(pid_t pid, std::chrono::seconds limit) {
  const auto give_up = Clock::now() + limit;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (Clock::now() > give_up) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -9;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

Result cli(const std::vector<std::string>& args,
           const std::vector<std::pair<std::string, std::string>>& env = {}, uid_t uid = 0,
           std::chrono::seconds limit = std::chrono::seconds(120)) {
  static int n = 0;
  const fs::path log = fs::temp_directory_path() / ("fg-store-safety-" + std::to_string(getpid()) +
                                                    "-" + std::to_string(n++) + ".log");
  const auto start = Clock::now();
  Result r;
  r.code = reap(spawn(args, log, env, uid), limit);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.out = slurp(log);
  fs::remove(log);
  return r;
}

// A TCP listener on loopback that accepts every connection and never writes a byte: what a
// wedged PostgreSQL (or a firewall's tarpit) looks like to a client.
class SilentServer {
 public:
  SilentServer() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    listen(fd_, 16);
    acceptor_ = std::thread([this] {
      while (!stop_) {
        const int c = accept(fd_, nullptr, nullptr);
        if (c >= 0) held_.push_back(c);
        accepted_ += c >= 0 ? 1 : 0;
      }
    });
  }
  ~SilentServer() {
    stop_ = true;
    shutdown(fd_, SHUT_RDWR);
    acceptor_.join();
    close(fd_);
    for (const int c : held_) close(c);
  }
  int port() const { return port_; }
  int accepted() const { return accepted_; }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::vector<int> held_;
  std::thread acceptor_;
};

int closed_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);  // nobody listens there now
  return ntohs(a.sin_port);
}

fs::path write_run(const fs::path& results, const std::string& id, double time_us, unsigned seed) {
  testing::ResultSpec s;
  s.bytes = 1 << 20;
  s.time_us = testing::noisy(time_us, 0.003, 5, seed);
  testing::RunSpec rs;
  rs.run_id = id;
  json doc = testing::make_run(rs, {testing::make_result(s)});
  char started[32];
  std::snprintf(started, sizeof started, "2026-11-30T%02u:%02u:00Z", seed / 60 % 24, seed % 60);
  doc["started_at"] = started;
  return testing::write_run_dir(results, doc);
}

// A baseline from three runs at 100 us in three sittings, in root/baselines.
void make_baseline(const fs::path& root) {
  std::vector<std::string> args{"baseline", "create", "--baselines-dir",
                                (root / "baselines").string()};
  for (unsigned i = 0; i < 3; ++i) {
    args.push_back("--from");
    // Three sittings an hour apart (seed = minute of the day): between-sitting noise measured.
    args.push_back(
        write_run(root / "base", "base-" + std::to_string(i), 100, 10 + 60 * i).string());
  }
  const Result r = cli(args);
  ASSERT_EQ(r.code, 0) << r.out;
}

struct FileState {
  std::string bytes;
  std::int64_t mtime_ns = 0;
  bool operator==(const FileState& o) const { return bytes == o.bytes && mtime_ns == o.mtime_ns; }
};

FileState state_of(const fs::path& p) {
  struct stat st {};
  stat(p.c_str(), &st);
  return {slurp(p), st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec};
}

void sql(const fs::path& file, const std::vector<std::string>& statements) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  for (const std::string& s : statements) {
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db, s.c_str(), nullptr, nullptr, &err), SQLITE_OK)
        << s << ": " << (err ? err : "");
    sqlite3_free(err);
  }
  sqlite3_close(db);
}

long long count(const fs::path& file, const std::string& query) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  long long n = -1;
  if (sqlite3_prepare_v2(db, query.c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

// --- PostgreSQL that never answers ------------------------------------------------------------

TEST(store_Safety, ASilentOrDeadPostgresIsExit3WithinTheNamedBound) {
  SilentServer silent;
  const int dead = closed_port();
  const std::vector<std::pair<std::string, std::string>> env = {
      {"FABRICGATE_STORE_TIMEOUT", "2"}, {"PGCONNECT_TIMEOUT", "0"}, {"PGPASSWORD", ""}};
  const std::vector<std::string> stores = {
      "postgresql://fg@127.0.0.1:" + std::to_string(silent.port()) + "/fg",
      "host=127.0.0.1 port=" + std::to_string(silent.port()) + " dbname=fg user=fg sslmode=disable",
      "postgresql://fg@127.0.0.1:" + std::to_string(silent.port()) + "/fg?sslmode=require",
      "postgresql://fg@127.0.0.1:" + std::to_string(dead) + "/fg",
  };
  const fs::path root = testing::fresh_temp_dir("store-silent-pg");
  write_run(root / "results", "r-0", 100, 1);
  for (const std::string& store : stores) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"store", "info", "--store", store},
          std::vector<std::string>{"history", "--all", "--store", store},
          std::vector<std::string>{"store", "import", (root / "results").string(), "--store",
                                   store}}) {
      const Result r = cli(args, env, 0, std::chrono::seconds(60));
      EXPECT_EQ(r.code, 3) << store << " " << args[0] << "\n" << r.out;
      EXPECT_LT(r.seconds, 10.0) << store << " " << args[0] << "\n" << r.out;
      if (store.find(std::to_string(silent.port())) != std::string::npos) {
        EXPECT_NE(r.out.find("no answer within 2 s"), std::string::npos) << r.out;
      }
    }
  }
  EXPECT_GT(silent.accepted(), 0);
}

// run/compare print the verdict first and the store's failure after it; a gate failure (1) wins
// over the store's (3), a pass becomes 3.
TEST(store_Safety, CompareKeepsTheVerdictAndReportsTheSilentStoreAfterIt) {
  SilentServer silent;
  const fs::path root = testing::fresh_temp_dir("store-silent-compare");
  make_baseline(root);
  const std::string store = "postgresql://fg@127.0.0.1:" + std::to_string(silent.port()) + "/fg";
  const std::vector<std::pair<std::string, std::string>> env = {{"FABRICGATE_STORE_TIMEOUT", "1"}};
  struct Case {
    double time_us;
    int code;
    const char* verdict;
  };
  for (const Case c : {Case{100, 3, "PASS"}, Case{160, 1, "REGRESSION"}}) {
    const fs::path run = write_run(root / "results", "r-" + std::to_string(int(c.time_us)),
                                   c.time_us, 50 + static_cast<unsigned>(c.time_us));
    const Result r = cli({"compare", run.string(), "--baselines-dir", (root / "baselines").string(),
                          "--store", store},
                         env);
    EXPECT_EQ(r.code, c.code) << r.out;
    EXPECT_LT(r.seconds, 10.0) << r.out;
    const auto verdict = r.out.find(c.verdict);
    const auto store_error = r.out.find("infrastructure failure");
    ASSERT_NE(verdict, std::string::npos) << r.out;
    ASSERT_NE(store_error, std::string::npos) << r.out;
    EXPECT_LT(verdict, store_error) << "the verdict comes first:\n" << r.out;
    EXPECT_NE(r.out.find("NOT recorded"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(run.string()), std::string::npos) << "names the run directory\n" << r.out;
  }
}

// --- Two to four writers creating one new SQLite file ------------------------------------------

TEST(store_Safety, ConcurrentWritersCreatingANewSqliteStoreLoseNoRun) {
  const fs::path root = testing::fresh_temp_dir("store-race");
  make_baseline(root);
  constexpr int kRounds = 12;
  for (int round = 0; round < kRounds; ++round) {
    const int writers = 2 + round % 3;  // 2, 3, 4
    const fs::path file = root / ("round-" + std::to_string(round)) / "fg.sqlite";
    const std::string store = "sqlite:" + file.string();
    std::vector<pid_t> pids;
    std::vector<fs::path> logs;
    int expected = 0;
    for (int w = 0; w < writers; ++w) {
      const fs::path results = root / ("r" + std::to_string(round) + "w" + std::to_string(w));
      std::vector<std::string> args;
      if (w % 2 == 0) {  // an import of two runs
        for (int k = 0; k < 2; ++k)
          write_run(results, "imp-" + std::to_string(w) + "-" + std::to_string(k), 100,
                    static_cast<unsigned>(100 + w * 10 + k));
        args = {"store", "import", results.string(), "--store", store};
        expected += 2;
      } else {  // a compare that records its run
        const fs::path run =
            write_run(results, "cmp-" + std::to_string(w), 100, static_cast<unsigned>(300 + w));
        args = {"compare", run.string(), "--baselines-dir", (root / "baselines").string(),
                "--store", store};
        expected += 1;
      }
      logs.push_back(root / ("log-" + std::to_string(round) + "-" + std::to_string(w)));
      pids.push_back(spawn(args, logs.back()));
    }
    for (std::size_t w = 0; w < pids.size(); ++w) {
      const int code = reap(pids[w], std::chrono::seconds(180));
      EXPECT_EQ(code, 0) << "round " << round << " writer " << w << "\n" << slurp(logs[w]);
    }
    EXPECT_EQ(count(file, "SELECT count(*) FROM runs"), expected) << "round " << round;
    EXPECT_EQ(count(file, "SELECT count(*) FROM schema_version"), 1) << "round " << round;
  }
}

// --- Foreign databases, old stores, read-only files --------------------------------------------

TEST(store_Safety, AForeignDatabaseIsRefusedUntouchedByEveryCommand) {
  const std::vector<std::vector<std::string>> foreign = {
      {"CREATE TABLE users (id INTEGER, name TEXT)", "INSERT INTO users VALUES (1, 'a')"},
      {"CREATE TABLE schema_version (version TEXT, applied_at TEXT)",
       "INSERT INTO schema_version VALUES ('20240101', 'x')"},
      {"CREATE TABLE schema_version (version INTEGER NOT NULL)",
       "INSERT INTO schema_version VALUES (1)",
       "CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT)",
       "CREATE TABLE medians (run INTEGER, key TEXT)"},
      {"CREATE TABLE schema_version (version INTEGER NOT NULL)",
       "INSERT INTO schema_version VALUES (2)", "INSERT INTO schema_version VALUES (3)"},
  };
  const fs::path root = testing::fresh_temp_dir("store-foreign");
  make_baseline(root);
  const fs::path run = write_run(root / "results", "r-0", 100, 7);
  for (std::size_t v = 0; v < foreign.size() + 2; ++v) {
    const fs::path file = root / ("foreign-" + std::to_string(v) + ".db");
    if (v < foreign.size()) {
      sql(file, foreign[v]);
    } else if (v == foreign.size()) {  // a fabricgate store plus a table of someone else's
      ASSERT_EQ(cli({"store", "import", (root / "results").string(), "--store",
                     "sqlite:" + file.string()})
                    .code,
                0);
      sql(file, {"CREATE TABLE audit (at TEXT)"});
    } else {  // not a database at all
      std::ofstream(file) << "name,value\nx,1\n";
    }
    const std::string store = "sqlite:" + file.string();
    const FileState before = state_of(file);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // an mtime change would show
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"store", "info", "--store", store},
          std::vector<std::string>{"history", "--all", "--store", store},
          std::vector<std::string>{"dashboard", "--store", store, "--out",
                                   (root / ("dash-" + std::to_string(v))).string()},
          std::vector<std::string>{"report", run.string(), "--baselines-dir",
                                   (root / "baselines").string(), "--store", store},
          std::vector<std::string>{"store", "import", (root / "results").string(), "--store",
                                   store},
          std::vector<std::string>{"compare", run.string(), "--baselines-dir",
                                   (root / "baselines").string(), "--store", store}}) {
      const Result r = cli(args);
      EXPECT_EQ(r.code, 3) << "variant " << v << " " << args[0] << " " << args[1] << "\n" << r.out;
      if (v <= foreign.size()) {
        EXPECT_NE(r.out.find("not a fabricgate results store"), std::string::npos)
            << "variant " << v << " " << args[0] << "\n"
            << r.out;
      }
    }
    EXPECT_TRUE(state_of(file) == before) << "variant " << v << ": the file was changed";
    EXPECT_FALSE(fs::exists(file.string() + "-wal")) << v;
    EXPECT_FALSE(fs::exists(file.string() + "-journal")) << v;
  }
}

TEST(store_Safety, ReadCommandsReadOldStoresWithoutMigratingThem) {
  const fs::path root = testing::fresh_temp_dir("store-old");
  for (const int version : {1, 2}) {
    const fs::path file = root / ("v" + std::to_string(version) + ".sqlite");
    std::vector<std::string> statements = store::create_schema_v1(store::Dialect::sqlite);
    statements.push_back(
        "INSERT INTO runs (platform, run_id, started_at, suite, scenario, complete) VALUES "
        "('plat-old', 'run-1', '2026-01-01T00:00:00Z', 'quick', 'default', 1)");
    if (version == 2) {
      for (const std::string& s : store::migrate_from(1, store::Dialect::sqlite))
        statements.push_back(s);
    }
    sql(file, statements);
    const std::string store = "sqlite:" + file.string();
    const FileState before = state_of(file);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const Result info = cli({"store", "info", "--store", store});
    const Result history = cli({"history", "--all", "--store", store});
    EXPECT_TRUE(state_of(file) == before) << "v" << version << " was changed by a read command";
    EXPECT_EQ(count(file, "SELECT version FROM schema_version"), version);
    if (version == 2) {
      EXPECT_EQ(info.code, 0) << info.out;
      EXPECT_NE(info.out.find("schema v2"), std::string::npos) << info.out;
      EXPECT_NE(info.out.find("plat-old: 1 runs"), std::string::npos) << info.out;
      EXPECT_EQ(history.code, 0) << history.out;
      EXPECT_NE(history.out.find("history of platform plat-old"), std::string::npos) << history.out;
      EXPECT_NE(history.out.find("1 newest runs"), std::string::npos) << history.out;
    } else {
      for (const Result& r : {info, history}) {
        EXPECT_EQ(r.code, 3) << r.out;
        EXPECT_NE(r.out.find("a write command"), std::string::npos) << r.out;
      }
    }
    // A write command migrates it.
    const fs::path results = root / ("results-" + std::to_string(version));
    write_run(results, "r-new", 100, 3);
    const Result imported = cli({"store", "import", results.string(), "--store", store});
    EXPECT_EQ(imported.code, 0) << imported.out;
    EXPECT_EQ(count(file, "SELECT version FROM schema_version"), store::kSchemaVersion);
  }
}

TEST(store_Safety, AReadOnlyStoreFileOrDirectoryCanBeRead) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to run the reader as an unprivileged user";
  constexpr uid_t kNobody = 65534;
  const fs::path root = testing::fresh_temp_dir("store-readonly");
  fs::permissions(root, fs::perms(0755));
  const fs::path results = root / "results";
  write_run(results, "r-a", 100, 1);
  write_run(results, "r-b", 100, 2);
  for (const bool read_only_dir : {false, true}) {
    const fs::path dir = root / (read_only_dir ? "ro-dir" : "ro-file");
    fs::create_directories(dir);
    const fs::path file = dir / "fg.sqlite";
    const std::string store = "sqlite:" + file.string();
    ASSERT_EQ(cli({"store", "import", results.string(), "--store", store}).code, 0);
    fs::permissions(file, fs::perms(0444));
    fs::permissions(dir, fs::perms(read_only_dir ? 0555 : 0777));
    const FileState before = state_of(file);
    const Result info = cli({"store", "info", "--store", store}, {}, kNobody);
    EXPECT_EQ(info.code, 0) << info.out;
    EXPECT_NE(info.out.find(": 2 runs"), std::string::npos) << info.out;
    const Result history = cli({"history", "--all", "--store", store}, {}, kNobody);
    EXPECT_EQ(history.code, 0) << history.out;
    EXPECT_NE(history.out.find("2 newest runs"), std::string::npos) << history.out;
    const fs::path site = root / ("site-" + std::to_string(read_only_dir));
    fs::create_directories(site);
    fs::permissions(site, fs::perms(0777));
    const Result dash = cli({"dashboard", "--store", store, "--out", site.string()}, {}, kNobody);
    EXPECT_EQ(dash.code, 0) << dash.out;
    EXPECT_TRUE(state_of(file) == before);
    // A write command says it cannot write, with exit 3.
    const Result write = cli({"store", "import", results.string(), "--store", store}, {}, kNobody);
    EXPECT_EQ(write.code, 3) << write.out;
    fs::permissions(dir, fs::perms(0755));
  }
}

// --- SQLite URI names and stores that cannot be written ----------------------------------------

TEST(store_Safety, SqliteUriNamesAreRefusedBeforeAnything) {
  const fs::path root = testing::fresh_temp_dir("store-uri");
  write_run(root / "results", "r-0", 100, 1);
  const std::string here = (root / "x.sqlite").string();
  for (const std::string& target :
       {"file:" + here + "?mode=memory", "file:" + here + "?mode=ro",
        "file:" + here + "?vfs=unix-dotfile", "FILE:" + here, std::string(":memory:"),
        "//file:" + here + "?mode=memory&cache=shared"}) {
    const Result r =
        cli({"store", "import", (root / "results").string(), "--store", "sqlite:" + target});
    EXPECT_EQ(r.code, 2) << target << "\n" << r.out;
    EXPECT_NE(r.out.find("plain file path"), std::string::npos) << r.out;
    const Result info = cli({"store", "info", "--store", "sqlite:" + target});
    EXPECT_EQ(info.code, 2) << target << "\n" << info.out;
  }
  EXPECT_FALSE(fs::exists(root / "x.sqlite"));
  // A file literally named so is reachable as a relative path.
  const fs::path odd = root / "file:odd.sqlite";
  const Result r =
      cli({"store", "import", (root / "results").string(), "--store", "sqlite:" + odd.string()});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(count(odd, "SELECT count(*) FROM runs"), 1);
}

TEST(store_Safety, AStoreThatCannotBeWrittenNeverLosesTheRunSilently) {
  const fs::path root = testing::fresh_temp_dir("store-unwritable");
  make_baseline(root);
  std::ofstream(root / "a-file") << "x";
  const fs::path foreign = root / "foreign.db";
  sql(foreign, {"CREATE TABLE users (id INTEGER)"});
  const std::vector<std::string> stores = {
      "sqlite:" + (root / "a-file" / "fg.sqlite").string(),  // its directory is a file
      "sqlite:" + foreign.string(),
  };
  for (std::size_t i = 0; i < stores.size(); ++i) {
    const fs::path run =
        write_run(root / "results", "r-" + std::to_string(i), 100, 20 + static_cast<unsigned>(i));
    const Result r = cli({"compare", run.string(), "--baselines-dir", (root / "baselines").string(),
                          "--store", stores[i]});
    EXPECT_EQ(r.code, 3) << stores[i] << "\n" << r.out;
    EXPECT_NE(r.out.find("NOT recorded"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(run.string()), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("fabricgate store import"), std::string::npos) << r.out;
    EXPECT_TRUE(fs::exists(run / "run.json"));
  }
  // A directory given as the store is bad input, said as such before anything is judged or
  // written (issue 58: SQLite's own words were "disk I/O error"), exit 2.
  const fs::path run = write_run(root / "results", "r-dir", 100, 30);
  const Result r = cli({"compare", run.string(), "--baselines-dir", (root / "baselines").string(),
                        "--store", "sqlite:" + root.string()});
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("names a file, not a directory"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("disk I/O error"), std::string::npos) << r.out;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
