#pragma once
// One side of `fabricgate ab` from its --a / --b items:
//   NAME=VALUE   an environment variable for every rank (NAME: [A-Z_][A-Za-z0-9_]*, so
//                OMPI_MCA_btl too; VALUE without shell syntax)
//   nccl=PATH    the NCCL library: a libnccl.so.2 file or a directory holding one (or lib/, lib64/
//                below it, as in the nvidia-nccl pip package); its directory goes first in
//                LD_LIBRARY_PATH so the bench, linked against the soname libnccl.so.2, loads it
//   label=NAME   the side's name in reports
//   unset=NAME   NAME is not set for the side's launcher and ranks, whatever the job's
//                environment or the suite says (the baseline's side of a setting the baseline
//                did not have: `fabricgate ab --a unset=OMPI_MCA_btl --b OMPI_MCA_btl=tcp,self`)
//   wrap=CMD     the side's ranks run under CMD (mpirun ... CMD fabricgate-bench ...): numactl,
//                taskset, a container entry point, a load. No shell: CMD is split on blanks into
//                argv, shell syntax is refused, and its program must be an absolute executable
//                or found on PATH (resolved here, so every launch runs the same file)
// No items: the machine as it is.
#include <map>
#include <string>
#include <vector>

#include "harness/ab/ab_compare.hpp"

namespace fabricgate::launch {

// Throws InputError naming the option (--a / --b), the item (its value redacted as a record
// keeps it: shown_item) and what was expected.
ab::AbSide parse_ab_side(const std::string& id, const std::vector<std::string>& items);
std::string shown_item(const std::string& item);

// wrap=CMD's argv with its program resolved against `path` (a PATH value; may be null). Throws
// InputError naming `item` when CMD is empty, has shell syntax, or its program is not executable.
std::vector<std::string> parse_wrap_command(const std::string& item, const std::string& command,
                                            const char* path);

// What a launch of `side` adds to every rank's environment: its variables, and for nccl=PATH an
// LD_LIBRARY_PATH of the library's directory followed by `inherited_ld_library_path` (may be null).
std::map<std::string, std::string> ab_launch_env(const ab::AbSide& side,
                                                 const char* inherited_ld_library_path);

}  // namespace fabricgate::launch
