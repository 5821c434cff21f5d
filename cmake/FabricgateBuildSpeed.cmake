# Build speed (docs/BUILD.md has the measurements behind each choice). A clean build on a 2-core
# runner spent most of its time parsing and instantiating the same third-party headers in every
# translation unit (nlohmann/json in nearly all of them through run_record.hpp and baseline.hpp,
# GoogleTest in every test file). Three levers, each an option so its effect can be measured:
#   FABRICGATE_CCACHE  ccache as the compiler launcher when it is installed (a warm rebuild);
#   FABRICGATE_PCH     one precompiled header of json/{fmt}/std for the libraries and one with
#                      GoogleTest for the tests, shared by every target (REUSE_FROM);
#   FABRICGATE_UNITY   unity builds: a library's files compiled a few at a time, so json's
#                      templates are instantiated once per batch instead of once per file.
# Must be included before the first target is created: the launcher and unity settings are read
# when a target is made.

option(FABRICGATE_CCACHE "Compile through ccache when it is installed" ON)
option(FABRICGATE_PCH "Precompile the heavy third-party headers" ON)
option(FABRICGATE_UNITY "Unity builds for the libraries and the CLI" ON)
set(FABRICGATE_UNITY_BATCH 8 CACHE STRING "Source files per unity unit")

if(FABRICGATE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(FABRICGATE_CCACHE_PROGRAM ccache)
  if(FABRICGATE_CCACHE_PROGRAM)
    # pch_defines and time_macros: ccache otherwise refuses to cache a unit that uses a
    # precompiled header (ccache manual, "Precompiled headers").
    set(_fabricgate_launcher ${CMAKE_COMMAND} -E env
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        ${FABRICGATE_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${_fabricgate_launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${_fabricgate_launcher})
    set(CMAKE_CUDA_COMPILER_LAUNCHER ${_fabricgate_launcher})
    set(FABRICGATE_BUILD_CCACHE "ccache (${FABRICGATE_CCACHE_PROGRAM})")
  else()
    set(FABRICGATE_BUILD_CCACHE "off (ccache not installed)")
  endif()
elseif(CMAKE_CXX_COMPILER_LAUNCHER)
  set(FABRICGATE_BUILD_CCACHE "launcher ${CMAKE_CXX_COMPILER_LAUNCHER}")
else()
  set(FABRICGATE_BUILD_CCACHE "off (FABRICGATE_CCACHE=OFF)")
endif()

if(FABRICGATE_UNITY)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${FABRICGATE_UNITY_BATCH})
endif()

# A precompiled header that GCC cannot use is skipped without a word, and the build is slow
# again; this makes that a warning (an error in CI, where warnings are errors).
if(FABRICGATE_PCH)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Winvalid-pch>)
  # A header is only used where the macros it saw are defined alike: {fmt}'s target defines
  # FMT_SHARED for its users, and some targets take fmt only at link time. Define it for all.
  get_target_property(_fmt_definitions fmt::fmt INTERFACE_COMPILE_DEFINITIONS)
  if(_fmt_definitions)
    add_compile_definitions(${_fmt_definitions})
  endif()
endif()

# The headers every library unit pays for. Standard headers that nearly every unit includes are
# part of it; nothing of ours (a change to one of our headers must not rebuild the world).
set(FABRICGATE_PCH_HEADERS
  <nlohmann/json.hpp> <fmt/format.h> <algorithm> <filesystem> <map> <memory> <optional> <set>
  <string> <string_view> <vector>)

# _fabricgate_pch_holder(NAME LIBS ... HEADERS ...): an empty OBJECT target whose precompiled
# header the others reuse. A reused header is only valid with the same compile flags (GCC
# silently ignores it otherwise), so it carries the warnings target and the standard like every
# target here.
function(_fabricgate_pch_holder name)
  cmake_parse_arguments(H "" "" "LIBS;HEADERS" ${ARGN})
  file(WRITE ${CMAKE_BINARY_DIR}/${name}.cpp "// precompiled-header holder\n")
  add_library(${name} OBJECT ${CMAKE_BINARY_DIR}/${name}.cpp)
  set_target_properties(${name} PROPERTIES UNITY_BUILD OFF)
  target_link_libraries(${name} PRIVATE nlohmann_json::nlohmann_json fmt::fmt ${H_LIBS}
                        fabricgate_warnings)
  target_precompile_headers(${name} PRIVATE ${FABRICGATE_PCH_HEADERS} ${H_HEADERS})
endfunction()

# The libraries' header (json, {fmt}, std).
function(fabricgate_make_pch_targets)
  if(FABRICGATE_PCH)
    _fabricgate_pch_holder(fabricgate_pch)
  endif()
endfunction()

# The tests' header: the libraries' plus GoogleTest, with the definitions every test has.
function(fabricgate_make_test_pch_target)
  if(FABRICGATE_PCH)
    _fabricgate_pch_holder(fabricgate_test_pch LIBS GTest::gtest HEADERS <gtest/gtest.h>)
    target_compile_definitions(fabricgate_test_pch PRIVATE
      FABRICGATE_SOURCE_DIR="${PROJECT_SOURCE_DIR}" FABRICGATE_BINARY_DIR="${PROJECT_BINARY_DIR}")
  endif()
endfunction()

# Every C++ target of the source tree starts from a shared precompiled header: the tests (named
# in FABRICGATE_TEST_TARGETS by fabricgate_add_test) from the one with GoogleTest, the rest from
# the libraries' one. Targets with CUDA sources keep nvcc's own path.
function(_fabricgate_targets_under dir out)
  get_property(_targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(_subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(_sub IN LISTS _subdirs)
    _fabricgate_targets_under(${_sub} _more)
    list(APPEND _targets ${_more})
  endforeach()
  set(${out} ${_targets} PARENT_SCOPE)
endfunction()

function(fabricgate_apply_pch)
  if(NOT FABRICGATE_PCH)
    return()
  endif()
  get_property(_tests GLOBAL PROPERTY FABRICGATE_TEST_TARGETS)
  _fabricgate_targets_under(${PROJECT_SOURCE_DIR} _all)
  foreach(_t IN LISTS _all)
    if(_t MATCHES "^fabricgate_(test_)?pch$")
      continue()
    endif()
    get_target_property(_type ${_t} TYPE)
    if(NOT _type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY|EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
      continue()
    endif()
    get_target_property(_disabled ${_t} DISABLE_PRECOMPILE_HEADERS)
    if(_disabled)
      continue()
    endif()
    get_target_property(_pic ${_t} POSITION_INDEPENDENT_CODE)
    if(_pic)
      continue()  # -fPIC: the shared header was made without it (the NCCL profiler plugin)
    endif()
    get_target_property(_own ${_t} PRECOMPILE_HEADERS)
    if(_own)
      continue()  # a header of its own (the CLI's, with CLI11)
    endif()
    get_target_property(_sources ${_t} SOURCES)
    set(_cxx OFF)
    set(_cuda OFF)
    foreach(_s IN LISTS _sources)
      if(_s MATCHES "\\.cu$")
        set(_cuda ON)
      elseif(_s MATCHES "\\.cpp$")
        set(_cxx ON)
      endif()
    endforeach()
    if(NOT _cxx OR _cuda)
      continue()
    endif()
    if(_t IN_LIST _tests)
      target_precompile_headers(${_t} REUSE_FROM fabricgate_test_pch)
    else()
      target_precompile_headers(${_t} REUSE_FROM fabricgate_pch)
    endif()
  endforeach()
endfunction()
