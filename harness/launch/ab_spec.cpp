#include "harness/launch/ab_spec.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <system_error>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/suite.hpp"
#include "core/text_escape.hpp"
#include "harness/model/secret_redaction.hpp"

namespace fabricgate::launch {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSoname = "libnccl.so.2";

// An environment variable name: [A-Z_][A-Za-z0-9_]*. Wider than is_safe_env_name (suite files),
// because Open MPI's parameters are lower case after their prefix (OMPI_MCA_btl, OMPI_MCA_pml);
// the capital first letter keeps typos of the lower-case keywords (ncl=, lable=) from becoming
// variables silently.
bool is_side_env_name(const std::string& name) {
  if (name.empty() || name.size() > 128 || !((name[0] >= 'A' && name[0] <= 'Z') || name[0] == '_'))
    return false;
  for (const char c : name) {
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  }
  return true;
}

// The directory the loader will search and the library it will find there for nccl=PATH.
void resolve_nccl(const std::string& option, const std::string& path, ab::AbSide& side) {
  const std::string item = option + " nccl=" + path;
  if (path.empty() || !is_safe_env_value(path) || path.find(':') != std::string::npos) {
    throw InputError(item + ": expected a path without ':' or shell syntax ($ ` ; | & < > quotes)");
  }
  std::error_code ec;
  const fs::path given = fs::absolute(path, ec).lexically_normal();
  fs::path dir;
  if (fs::is_directory(given, ec)) {
    for (const fs::path& candidate : {given, given / "lib", given / "lib64"}) {
      if (fs::exists(candidate / kSoname, ec)) {
        dir = candidate;
        break;
      }
    }
    if (dir.empty()) {
      throw InputError(item + ": expected a directory holding " + kSoname +
                       " (itself, or lib/ or lib64/ below it); none in " + given.string());
    }
  } else if (fs::is_regular_file(given, ec)) {
    dir = given.parent_path();
    // The bench asks the loader for the soname, so the file it finds in this directory under that
    // name is what loads; a file known by another name alone would be ignored.
    const fs::path by_soname = dir / kSoname;
    if (!fs::exists(by_soname, ec) || fs::canonical(by_soname, ec) != fs::canonical(given, ec)) {
      throw InputError(item + ": the bench loads NCCL by its soname " + kSoname + ", and " +
                       by_soname.string() + " is not this file; name the directory, or link " +
                       kSoname + " to the file");
    }
  } else {
    throw InputError(item +
                     ": expected an existing libnccl.so.2 file or a directory holding one; " +
                     given.string() + " does not exist");
  }
  side.nccl = path;
  side.nccl_dir = dir.string();
  side.nccl_expected = fs::canonical(dir / kSoname, ec).string();
  if (ec)
    throw InputError(item + ": cannot resolve " + (dir / kSoname).string() + ": " + ec.message());
}

bool is_executable_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

std::vector<std::string> parse_wrap_command(const std::string& item, const std::string& command,
                                            const char* path) {
  // No shell runs CMD, so quotes and expansions would reach the program literally: refuse them.
  if (!is_safe_env_value(command)) {
    throw InputError(item +
                     ": expected a command and its arguments separated by blanks, without "
                     "shell syntax ($ ` ; | & < > quotes or newlines); no shell runs it");
  }
  std::vector<std::string> argv;
  std::istringstream words(command);
  for (std::string w; words >> w;) argv.push_back(w);
  if (argv.empty()) throw InputError(item + ": expected a command, e.g. wrap=taskset -c 0");
  const std::string program = argv.front();
  if (program.find('/') != std::string::npos) {
    if (program.front() != '/') {
      throw InputError(item + ": \"" + program +
                       "\" is a relative path; expected an absolute path or a name on PATH");
    }
    if (!is_executable_file(program))
      throw InputError(item + ": " + program + " is not an executable file");
    return argv;
  }
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty() || dir.front() != '/') continue;  // "." in PATH would depend on the cwd
    const fs::path candidate = fs::path(dir) / program;
    if (is_executable_file(candidate)) {
      argv.front() = candidate.string();
      return argv;
    }
  }
  throw InputError(item + ": \"" + program + "\" is not an executable on PATH (" +
                   (path ? path : "PATH unset") + ")");
}

// An item as an error message shows it: NAME=VALUE with the value as a record would keep it (a
// secret-named variable keeps its name only, a token-shaped part of any value is cut, issue 58)
// and printable, so a refused item never echoes `?token=...` or control characters into a log.
std::string shown_item(const std::string& item) {
  const auto eq = item.find('=');
  if (eq == std::string::npos) return report::printable(item, 200);
  const std::string name = item.substr(0, eq);
  return report::printable(name + "=" + recordable_value(name, item.substr(eq + 1)), 200);
}

ab::AbSide parse_ab_side(const std::string& id, const std::vector<std::string>& items) {
  ab::AbSide side;
  side.id = id;
  side.label = id == "a" ? "A" : id == "b" ? "B" : id;
  side.items = items;
  const std::string option = "--" + id;
  bool labelled = false;
  for (const std::string& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw InputError(
          option + " \"" + item +
          "\": expected NAME=VALUE (an environment variable), nccl=PATH, wrap=CMD, unset=NAME or "
          "label=NAME");
    }
    const std::string name = item.substr(0, eq);
    const std::string value = item.substr(eq + 1);
    if (name == "nccl") {
      if (!side.nccl.empty())
        throw InputError(option + " nccl=" + value + ": nccl= given twice for one side");
      resolve_nccl(option, value, side);
    } else if (name == "wrap") {
      if (!side.wrap.empty())
        throw InputError(option + " wrap=" + value + ": wrap= given twice for one side");
      side.wrap = parse_wrap_command(option + " wrap=" + value, value, std::getenv("PATH"));
    } else if (name == "unset") {
      if (!is_side_env_name(value))
        throw InputError(option + " unset=" + value +
                         ": expected an environment variable name ([A-Z_][A-Za-z0-9_]*)");
      if (!side.unset.insert(value).second)
        throw InputError(option + " unset=" + value + ": unset twice for one side");
    } else if (name == "label") {
      if (labelled)
        throw InputError(option + " label=" + value + ": label= given twice for one side");
      if (!is_safe_name(value)) {
        throw InputError(option + " label=" + value +
                         ": expected a name of letters, digits, '.', '_' and '-'");
      }
      side.label = value;
      labelled = true;
    } else if (is_side_env_name(name)) {
      if (!is_safe_env_value(value)) {
        throw InputError(
            option + " " + shown_item(item) +
            ": expected a plain value without shell syntax ($ ` ; | & < > quotes or newlines)");
      }
      if (side.env.count(name)) throw InputError(option + " " + name + ": set twice for one side");
      side.env[name] = value;
    } else {
      throw InputError(option + " \"" + shown_item(item) + "\": \"" + report::printable(name, 200) +
                       "\" is neither an environment variable name ([A-Z_][A-Za-z0-9_]*) nor nccl, "
                       "wrap, unset or label");
    }
  }
  for (const std::string& name : side.unset) {
    if (side.env.count(name))
      throw InputError(option + " unset=" + name + " and " +
                       shown_item(name + "=" + side.env.at(name)) + ": set and unset on one side");
  }
  if (!side.nccl.empty() && side.env.count("LD_LIBRARY_PATH")) {
    throw InputError(option +
                     ": nccl= and LD_LIBRARY_PATH= together; nccl= sets LD_LIBRARY_PATH itself");
  }
  return side;
}

std::map<std::string, std::string> ab_launch_env(const ab::AbSide& side,
                                                 const char* inherited_ld_library_path) {
  std::map<std::string, std::string> env = side.env;
  if (!side.nccl_dir.empty()) {
    const std::string rest = inherited_ld_library_path ? inherited_ld_library_path : "";
    env["LD_LIBRARY_PATH"] = side.nccl_dir + (rest.empty() ? "" : ":" + rest);
  }
  return env;
}

}  // namespace fabricgate::launch
