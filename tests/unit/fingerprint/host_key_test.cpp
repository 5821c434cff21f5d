// The host key file (harness/fingerprint/host_key.hpp) on real files: made once with mode 0600
// and read back the same; every file it must not trust (a symlink, a directory, group- or
// world-readable, another user's, garbage, empty) is refused naming the file, and never replaced.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "fake_tree.hpp"
#include "harness/fingerprint/host_key.hpp"

namespace fabricgate::fingerprint {
namespace {

namespace fs = std::filesystem;

// FABRICGATE_HOST_KEY_FILE pointed at `path` for one test.
class KeyFileAt {
 public:
  explicit KeyFileAt(const fs::path& path) {
    ::setenv("FABRICGATE_HOST_KEY_FILE", path.c_str(), 1);
  }
  ~KeyFileAt() { ::unsetenv("FABRICGATE_HOST_KEY_FILE"); }
  KeyFileAt(const KeyFileAt&) = delete;
  KeyFileAt& operator=(const KeyFileAt&) = delete;
};

std::string refusal(const fs::path& path) {
  try {
    require_host_key();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no refusal for " << path;
  return "";
}

TEST(fingerprint_host_key, IsMadeOnceOwnerOnlyAndReadBackTheSame) {
  testing::FakeTree tree;
  const fs::path path = tree.root() / "state" / "host-key";
  KeyFileAt at(path);
  EXPECT_EQ(host_key_file(), path);
  EXPECT_FALSE(read_host_key().has_value());  // readers never create it
  EXPECT_FALSE(fs::exists(path));
  const std::string key = require_host_key();
  EXPECT_EQ(key.size(), 64u);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(require_host_key(), key);
  EXPECT_EQ(read_host_key().value_or(""), key);
}

TEST(fingerprint_host_key, AFileItMustNotTrustIsRefusedNamingItAndLeftAlone) {
  testing::FakeTree tree;
  const std::string good(64, 'e');
  const auto check = [&](const fs::path& path, const std::string& says) {
    KeyFileAt at(path);
    const std::string why = refusal(path);
    EXPECT_NE(why.find(path.string()), std::string::npos) << why;
    EXPECT_NE(why.find(says), std::string::npos) << why;
    EXPECT_FALSE(read_host_key().has_value()) << path;
  };
  const fs::path target = tree.write("real-key", good + "\n");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);
  tree.symlink(target.string(), "link/host-key");
  check(tree.root() / "link/host-key", "symbolic link");
  tree.mkdir("dir/host-key");
  check(tree.root() / "dir/host-key", "not a regular file");
  const fs::path shared = tree.write("shared/host-key", good + "\n");
  fs::permissions(shared, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  check(shared, "group or others");
  const fs::path garbage = tree.write("garbage/host-key", "not a key\n");
  fs::permissions(garbage, fs::perms::owner_read | fs::perms::owner_write);
  check(garbage, "64 lower-case hex digits");
  const fs::path empty = tree.write("empty/host-key", "");
  fs::permissions(empty, fs::perms::owner_read | fs::perms::owner_write);
  check(empty, "empty");
  std::ifstream kept(garbage);
  std::string line;
  std::getline(kept, line);
  EXPECT_EQ(line, "not a key");  // never replaced
  if (::geteuid() == 0) {
    const fs::path foreign = tree.write("foreign/host-key", good + "\n");
    fs::permissions(foreign, fs::perms::owner_read | fs::perms::owner_write);
    ASSERT_EQ(::chown(foreign.c_str(), 65534, 65534), 0);
    check(foreign, "another user");
  }
}

}  // namespace
}  // namespace fabricgate::fingerprint
