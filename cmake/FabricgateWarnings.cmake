# Warnings for our own targets only (vendor headers come in as SYSTEM includes).
add_library(fabricgate_warnings INTERFACE)
target_compile_options(fabricgate_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
                             -Wnon-virtual-dtor -Wold-style-cast>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${FABRICGATE_WERROR}>>:-Werror>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${FABRICGATE_WERROR}>>:-Werror=all-warnings>)
