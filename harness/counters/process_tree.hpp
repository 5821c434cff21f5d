#pragma once
// Which processes are the launch's own, from /proc under a root directory (tests use fake
// trees). The ranks are descendants of this fabricgate process: mpirun/prterun and a direct
// launch are our children and the ranks theirs. That holds without any help from the bench and
// needs no pid file that a crashed rank would leave stale. srun's tasks are children of
// slurmstepd instead, so under srun a process running the very fabricgate-bench executable we
// launched counts as ours too (the runner lock keeps a second fabricgate run off this runner).
#include <filesystem>
#include <set>
#include <string>

namespace fabricgate::counters {

// Every pid whose parent chain (/proc/PID/stat field 4) reaches `ancestor`, `ancestor` included.
std::set<unsigned> descendants_of(const std::filesystem::path& root, unsigned ancestor);

// Whether `pid`'s parent chain reaches `ancestor` (`pid` == `ancestor` included). Reads only the
// chain's stat files, a handful, not all of /proc: the sampler asks this of every GPU process
// every 2 s while the launch runs, and must not load the host it measures.
bool descends_from(const std::filesystem::path& root, unsigned pid, unsigned ancestor);

// /proc/PID/comm without the newline; "" when unreadable.
std::string process_name(const std::filesystem::path& root, unsigned pid);

// /proc/PID/exe's target; empty when unreadable (another user's process without ptrace rights).
std::filesystem::path process_executable(const std::filesystem::path& root, unsigned pid);

}  // namespace fabricgate::counters
