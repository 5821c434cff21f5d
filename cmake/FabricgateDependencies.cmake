# Dependencies are Debian packages (or the CUDA toolkit), found, never downloaded.
include(CheckLanguage)
find_package(PkgConfig REQUIRED)

# Required: the harness and the engine cannot exist without these.
find_package(nlohmann_json 3.9 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(benchmark REQUIRED)
find_package(Threads REQUIRED)
find_package(fmt REQUIRED)  # numbers in text output ({fmt}, not snprintf)
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)  # HMAC-SHA256 seals of stored rows (libssl-dev)

set(_fabricgate_features "")
macro(fabricgate_feature name found why_not)
  if(NOT DEFINED FABRICGATE_WITH_${name})
    set(FABRICGATE_WITH_${name} ${found} CACHE BOOL "Build the ${name} parts")
  elseif(FABRICGATE_WITH_${name} AND NOT ${found})
    message(WARNING "FABRICGATE_WITH_${name}=ON but ${why_not}; switching it off")
    set(FABRICGATE_WITH_${name} OFF CACHE BOOL "Build the ${name} parts" FORCE)
  endif()
  if(FABRICGATE_WITH_${name})
    list(APPEND _fabricgate_features "${name}=ON")
  elseif(${found})
    list(APPEND _fabricgate_features "${name}=OFF (switched off by option)")
  else()
    list(APPEND _fabricgate_features "${name}=OFF (${why_not})")
  endif()
endmacro()

# MPI: the launcher runtime and the host-collective backend.
find_package(MPI COMPONENTS CXX)
fabricgate_feature(MPI "${MPI_CXX_FOUND}" "no MPI C++ library found (apt-get install libopenmpi-dev)")

# CUDA: nvcc + runtime. The GPU machine's image needs CUDAHOSTCXX=/opt/gcc/bin/g++.
set(_cuda_ok FALSE)
find_package(CUDAToolkit QUIET)
if(CUDAToolkit_FOUND)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(_cuda_ok TRUE)
  endif()
endif()
fabricgate_feature(CUDA "${_cuda_ok}" "no CUDA toolkit with nvcc found (set CUDAToolkit_ROOT)")
if(FABRICGATE_WITH_CUDA)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)  # Hopper (H100/H200); override for other GPUs
  endif()
  enable_language(CUDA)
  # CMake 3.25 does not know the C++20 flag for nvcc 13; device code needs no more than C++17.
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
endif()

# NCCL: needs CUDA.
set(_nccl_ok FALSE)
if(FABRICGATE_WITH_CUDA)
  find_package(NCCL)
  set(_nccl_ok "${NCCL_FOUND}")
endif()
fabricgate_feature(NCCL "${_nccl_ok}" "NCCL not found or CUDA off (set NCCL_ROOT)")

pkg_check_modules(IBVERBS IMPORTED_TARGET libibverbs)
fabricgate_feature(VERBS "${IBVERBS_FOUND}" "libibverbs not found (apt-get install libibverbs-dev)")

pkg_check_modules(LIBFABRIC IMPORTED_TARGET libfabric)
fabricgate_feature(LIBFABRIC "${LIBFABRIC_FOUND}" "libfabric headers not found (apt-get install libfabric-dev)")

# The results store: SQLite is required (the default store), PostgreSQL optional (shared stores).
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
pkg_check_modules(LIBPQ IMPORTED_TARGET libpq)
fabricgate_feature(POSTGRESQL "${LIBPQ_FOUND}" "libpq not found (apt-get install libpq-dev)")

find_package(CURL)
fabricgate_feature(CURL "${CURL_FOUND}" "libcurl not found (apt-get install libcurl4-openssl-dev)")

function(fabricgate_print_feature_summary)
  message(STATUS "fabricgate ${PROJECT_VERSION} features:")
  foreach(_f IN LISTS _fabricgate_features)
    message(STATUS "  ${_f}")
  endforeach()
  if(FABRICGATE_WITH_NCCL)
    message(STATUS "  NCCL headers: ${NCCL_VERSION} (${NCCL_INCLUDE_DIR})")
  endif()
  message(STATUS "  build: compiler cache ${FABRICGATE_BUILD_CCACHE}, precompiled headers "
                 "${FABRICGATE_PCH}, unity ${FABRICGATE_UNITY} (batch ${FABRICGATE_UNITY_BATCH})")
endfunction()
