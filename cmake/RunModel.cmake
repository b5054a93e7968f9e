# ctest helper: runs `hdml-dispatch [-d DEVICE] MODEL` (under EMULATOR when
# cross-compiled) and compares its standard output with MODEL's .expected file,
# exactly. DEVICE=cuda on a machine without a GPU prints "skipped: no CUDA
# device" (the test's SKIP_REGULAR_EXPRESSION) and passes.
string(REGEX REPLACE "\\.json$" ".expected" expected_file "${MODEL}")
file(READ "${expected_file}" expected)
set(device_args "")
if (DEVICE)
    set(device_args -d ${DEVICE})
endif ()
execute_process(COMMAND ${EMULATOR} "${EXE}" ${device_args} "${MODEL}"
                OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE status)
if (DEVICE STREQUAL "cuda" AND errors MATCHES "no CUDA device \\(([^)]*)\\)")
    message("skipped: no CUDA device (${CMAKE_MATCH_1})")
    return()
endif ()
if (NOT status EQUAL 0)
    message(FATAL_ERROR "hdml-dispatch ${MODEL} exited with ${status}:\n${errors}")
endif ()
if (NOT output STREQUAL expected)
    message(FATAL_ERROR "hdml-dispatch ${MODEL} printed:\n${output}\nexpected (${expected_file}):\n${expected}")
endif ()
message(STATUS "${MODEL}: output matches ${expected_file}")
