#pragma once
// Every name a suite may use, in one place for the harness (which checks a whole suite before it
// takes the runner lock, fingerprints or launches anything) and the bench (whose families accept
// exactly these names). A name outside its list is an InputError naming the file, the entry, the
// field, the valid names and the nearest one ("did you mean \"all_reduce\"?").
//
// Adding a collective, data type or family: its bench file and one row here;
// tests/unit/engine/suite_names_agreement_test.cpp fails until both agree.
#include <array>
#include <span>
#include <string>
#include <string_view>

#include "core/json_file.hpp"

namespace fabricgate {

inline constexpr std::array<std::string_view, 6> kSuiteFamilies{"coll",      "devcopy", "hostcopy",
                                                                "nodepairs", "p2p",     "rdma"};
inline constexpr std::array<std::string_view, 10> kCollectiveOps{
    "all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce",
    "alltoall",   "alltoallv",  "sendrecv",       "gather",    "scatter"};
inline constexpr std::array<std::string_view, 12> kDataTypeNames{
    "int8",    "uint8",    "int32",   "uint32",  "int64",    "uint64",
    "float16", "bfloat16", "float32", "float64", "fp8_e4m3", "fp8_e5m2"};
inline constexpr std::array<std::string_view, 5> kRedOps{"sum", "prod", "min", "max", "avg"};
inline constexpr std::array<std::string_view, 2> kPlacements{"oop", "ip"};
inline constexpr std::array<std::string_view, 2> kCollectiveBackends{"mpi", "nccl"};
inline constexpr std::array<std::string_view, 2> kBufferMemory{"host", "device"};
inline constexpr std::array<std::string_view, 1> kHostcopyBackends{"host"};
inline constexpr std::array<std::string_view, 1> kHostcopyOps{"memcpy"};
inline constexpr std::array<std::string_view, 5> kP2pOps{"copy", "one_to_all", "all_to_one",
                                                         "local_copy", "latency"};
inline constexpr std::array<std::string_view, 2> kCopyEngines{"ce", "sm"};
inline constexpr std::array<std::string_view, 2> kP2pDirections{"write", "read"};
inline constexpr std::array<std::string_view, 2> kP2pModes{"uni", "bi"};
inline constexpr std::array<std::string_view, 3> kHostDirections{"h2d", "d2h", "bi"};
inline constexpr std::array<std::string_view, 2> kHostMemory{"pinned", "pageable"};
inline constexpr std::array<std::string_view, 2> kRdmaBackends{"libfabric", "verbs"};
inline constexpr std::array<std::string_view, 4> kRdmaOps{"write", "read", "send", "pingpong"};
inline constexpr std::array<std::string_view, 2> kVerbsTransports{"rc", "srd"};

bool is_one_of(std::string_view name, std::span<const std::string_view> names);

// A field of a family's entry whose value is a name (or a list of names) from a fixed list.
struct NameField {
  std::string_view field;                   // "ops"
  std::string_view what;                    // "a collective op"
  std::span<const std::string_view> names;  // the valid names
  bool is_list = false;                     // ["a", "b"] rather than "a"
  bool required = false;
  std::size_t default_count = 1;  // benchmarks per other parameter when the field is absent
};

// A family a bench binary registers beyond kSuiteFamilies (the test bench's stall/skew/hang
// fixtures): its own suites may name it. The shipped bench registers none, and the harness
// checks suites against kSuiteFamilies alone, so a product suite can never name one.
void allow_extra_suite_family(std::string_view family);

// The name fields of `family` (empty for an unknown family).
std::span<const NameField> family_name_fields(std::string_view family);

// Checks "family" and every name field of the entry at `pointer` ("/benchmarks/3"). Throws
// InputError (file, pointer, expectation with the valid names and the nearest one).
void check_entry_names(const JsonReader& reader, const std::string& pointer);

}  // namespace fabricgate
