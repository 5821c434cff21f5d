#pragma once
// One `scontrol --oneliner show node` record ("NodeName=n1 Arch=... State=IDLE+DRAIN ...
// Reason=fabricgate: ... [root@2026-12-06T18:34:02]"), as `nodes` reads it for the drain budget
// and for --resume. Reason is the record's last field and may hold blanks.
#include <string>

namespace fabricgate::cli {

// The value of `field=` up to the next blank; "" when absent.
std::string slurm_field(const std::string& record, const std::string& field);

// Slurm holds the node drained for fabricgate: its State drains and its Reason starts with
// fabricgate's prefix (node_actions.cpp writes "fabricgate: ..."). Another's drain is not ours.
bool held_by_fabricgate(const std::string& record);

// The Reason text after "Reason=", with Slurm's " [user@time]" stamp; "" when absent.
std::string slurm_reason(const std::string& record);

}  // namespace fabricgate::cli
