#pragma once
// Which libnccl this process really loaded: `fabricgate ab` compares it with the library a side
// asked for (nccl=PATH), since LD_LIBRARY_PATH can lose against an RPATH or an LD_PRELOAD.
#include <string>

namespace fabricgate::bench {

// Real path (symlinks resolved) of the shared object that defines ncclGetVersion in this
// process, or "" when no NCCL is loaded. Works in builds without NCCL too (then it is "").
std::string nccl_library_path();

}  // namespace fabricgate::bench
