# ctest helper: runs `hdml-dispatch [-d DEVICE] MODEL` (under EMULATOR when
# cross-compiled) and compares its standard output with MODEL's .expected file,
# exactly. DEVICE=cuda on a machine without a GPU prints "skipped: no CUDA
# device" (the test's SKIP_REGULAR_EXPRESSION) and passes; so does DEVICE=d3d12
# ("skipped: no D3D12 device"). With HDML_D3D12_COMPILER_FAILS set (tools/test.sh
# under wine, whose D3DCompile cannot compile hdml's HLSL), a d3d12 run that
# fails there prints how far it got ("attempted: ...") and passes.
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
if (DEVICE STREQUAL "d3d12" AND errors MATCHES "no D3D12 device \\(([^)]*)\\)")
    message("skipped: no D3D12 device (${CMAKE_MATCH_1})")
    return()
endif ()
if (DEVICE STREQUAL "d3d12" AND DEFINED ENV{HDML_D3D12_COMPILER_FAILS} AND errors MATCHES "D3DCompile \\(cs_5_1\\)")
    string(REGEX REPLACE "\n.*" "" first_line "${errors}")
    message("attempted: ${first_line}")
    return()
endif ()
if (NOT status EQUAL 0)
    message(FATAL_ERROR "hdml-dispatch ${MODEL} exited with ${status}:\n${errors}")
endif ()
if (NOT output STREQUAL expected)
    message(FATAL_ERROR "hdml-dispatch ${MODEL} printed:\n${output}\nexpected (${expected_file}):\n${expected}")
endif ()
message(STATUS "${MODEL}: output matches ${expected_file}")
