# ctest helper: runs `hdml-dispatch MODEL` (under EMULATOR when cross-compiled)
# and compares its standard output with MODEL's .expected file, exactly.
string(REGEX REPLACE "\\.json$" ".expected" expected_file "${MODEL}")
file(READ "${expected_file}" expected)
execute_process(COMMAND ${EMULATOR} "${EXE}" "${MODEL}"
                OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE status)
if (NOT status EQUAL 0)
    message(FATAL_ERROR "hdml-dispatch ${MODEL} exited with ${status}:\n${errors}")
endif ()
if (NOT output STREQUAL expected)
    message(FATAL_ERROR "hdml-dispatch ${MODEL} printed:\n${output}\nexpected (${expected_file}):\n${expected}")
endif ()
message(STATUS "${MODEL}: output matches ${expected_file}")
