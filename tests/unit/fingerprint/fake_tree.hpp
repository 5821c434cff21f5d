#pragma once
// A throw-away directory tree for tests: fake /sys, /proc and /etc files under a temp root.
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace fabricgate::fingerprint::testing {

class FakeTree {
 public:
  FakeTree() {
    std::random_device seed;
    root_ = std::filesystem::temp_directory_path() /
            ("fabricgate-fp-" + std::to_string(seed()) + "-" + std::to_string(seed()));
    std::filesystem::create_directories(root_);
  }
  ~FakeTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  FakeTree(const FakeTree&) = delete;
  FakeTree& operator=(const FakeTree&) = delete;

  const std::filesystem::path& root() const { return root_; }

  // Writes `text` to root/relative, creating directories.
  std::filesystem::path write(const std::string& relative, const std::string& text) const {
    const auto path = root_ / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  void mkdir(const std::string& relative) const {
    std::filesystem::create_directories(root_ / relative);
  }

  // root/relative -> target (target as written, like the kernel's relative symlinks).
  void symlink(const std::string& target, const std::string& relative) const {
    const auto path = root_ / relative;
    std::filesystem::create_directories(path.parent_path());
    std::filesystem::create_symlink(target, path);
  }

  // An executable script (tests only: stands in for a helper program such as fi_info).
  std::filesystem::path script(const std::string& relative, const std::string& body) const {
    const auto path = write(relative, "#!/bin/sh\n" + body);
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path;
  }

 private:
  std::filesystem::path root_;
};

}  // namespace fabricgate::fingerprint::testing
