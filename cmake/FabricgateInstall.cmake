# `cmake --install` and the Debian package (CPack, DEB generator): fabricgate and fabricgate-bench
# in bin/, the suites in share/fabricgate/suites (where an installed fabricgate looks for them,
# harness/cli/shipped_suites.cpp), the docs, a man page generated from --help, bash completion.

# Binaries. The bench links the CUDA runtime and NCCL from wherever the build found them (e.g.
# /usr/local/cuda/lib64, not a Debian package): keep those directories in its installed RUNPATH so
# the installed bench starts on a machine with the same layout (the NVIDIA CUDA images).
install(TARGETS fabricgate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET fabricgate-bench)
  set_target_properties(fabricgate-bench PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS fabricgate-bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/suites/ DESTINATION ${CMAKE_INSTALL_DATADIR}/fabricgate/suites
        FILES_MATCHING PATTERN "*.json")
# The roofline floors (docs/ROOFLINE.md), found beside the suites by an installed fabricgate.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/policies/ DESTINATION ${CMAKE_INSTALL_DATADIR}/fabricgate/policies
        FILES_MATCHING PATTERN "*.json")
# Every document the console, reports and --help name (docs/*.md), next to the README.
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/ACKS.md ${PROJECT_SOURCE_DIR}/docs/AB-GATE.md
              ${PROJECT_SOURCE_DIR}/docs/BUILD.md ${PROJECT_SOURCE_DIR}/docs/CI.md
              ${PROJECT_SOURCE_DIR}/docs/COUNTERS.md ${PROJECT_SOURCE_DIR}/docs/DASHBOARD.md
              ${PROJECT_SOURCE_DIR}/docs/DESIGN.md ${PROJECT_SOURCE_DIR}/docs/IMPORT.md
              ${PROJECT_SOURCE_DIR}/docs/INSTALL.md ${PROJECT_SOURCE_DIR}/docs/MULTINODE.md
              ${PROJECT_SOURCE_DIR}/docs/PITFALLS.md ${PROJECT_SOURCE_DIR}/docs/ROOFLINE.md
              ${PROJECT_SOURCE_DIR}/docs/STRAGGLERS.md ${PROJECT_SOURCE_DIR}/docs/THREAT-MODEL.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/harness/gate/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR}
        RENAME GATE.md)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/fabricgate.bash-completion
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME fabricgate)

# The man page: help2man over `fabricgate --help` plus every subcommand's --help
# (packaging/make-manpage), rebuilt whenever fabricgate is relinked, so it cannot fall behind the
# options. Without help2man the build goes on and nothing is installed in man1.
option(FABRICGATE_MAN_PAGE "Generate the man page with help2man (runs the built fabricgate)" ON)
find_program(FABRICGATE_HELP2MAN help2man)
if(NOT FABRICGATE_MAN_PAGE)
  set(_man_status "man page: switched off (FABRICGATE_MAN_PAGE=OFF)")
elseif(FABRICGATE_HELP2MAN)
  set(_man "${PROJECT_BINARY_DIR}/man/fabricgate.1.gz")
  add_custom_command(OUTPUT ${_man}
    COMMAND bash ${PROJECT_SOURCE_DIR}/packaging/make-manpage $<TARGET_FILE:fabricgate>
            ${FABRICGATE_HELP2MAN} ${_man}
    DEPENDS fabricgate ${PROJECT_SOURCE_DIR}/packaging/make-manpage
    COMMENT "Generating the man page fabricgate(1) from --help" VERBATIM)
  add_custom_target(fabricgate_man ALL DEPENDS ${_man})
  install(FILES ${_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  set(_man_status "man page: help2man")
else()
  set(_man_status "man page: not built (help2man not found: apt-get install help2man)")
endif()
message(STATUS "fabricgate ${_man_status}")

# The Debian package: `cpack -G DEB` in the build tree (tests/integration/install,
# .github/workflows/release.yml). Depends comes from dpkg-shlibdeps over the installed binaries
# (libbenchmark, libfmt, libcurl, libsqlite3, libpq, libmpi, libfabric, libibverbs... with the
# versions this build linked), plus mpirun, which no binary links. Libraries that belong to no
# Debian package (CUDA, NCCL under /usr/local/cuda) are searched for but not declared.
set(FABRICGATE_PACKAGE_MAINTAINER "fabricgate maintainers <fabricgate@users.noreply.github.com>"
    CACHE STRING "Maintainer field of the Debian package")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fabricgate)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "${FABRICGATE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # fabricgate_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "openmpi-bin")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libfabric-bin, ibverbs-utils, man-db")
if(FABRICGATE_WITH_CUDA)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CUDAToolkit_LIBRARY_DIR})
  if(NCCL_LIBRARY)
    get_filename_component(_nccl_dir "${NCCL_LIBRARY}" DIRECTORY)
    list(APPEND CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${_nccl_dir})
  endif()
endif()
set(CPACK_PACKAGE_DESCRIPTION
    "Measures NCCL collectives, GPU peer-to-peer and host-device copies, MPI host collectives and\n"
    "RDMA with Google Benchmark fixtures, fingerprints the platform and compares each run with a\n"
    "committed per-platform baseline; the exit code fails a CI job on a regression.")
string(CONCAT CPACK_PACKAGE_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
include(CPack)
