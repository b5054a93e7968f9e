# Turns the manifest (ops.cmake) into Halide libraries, the runtime's kernel
# tables and operator table, and the lists of tests and benchmarks.
#
#   hdml_generators(SOURCES ...)        the one generator executable (all families)
#   hdml_operator(TYPE DML_OPERATOR_X FACTORY fn SOURCES ... TESTS ... BENCHMARKS ...)
#   hdml_kernel(FAMILY f GENERATOR g PARAMS k=v ... PLATFORMS p ... [SMALL_BUFFERS] [TUNING s])
#                                       SMALL_BUFFERS: built without large_buffers
#                                       (32-bit indices: buffers under 2 GiB)
#                                       TUNING: the params/ section of its numbers
#                                       (default: the generator's)
#   hdml_finalize()                     writes the tables, creates hdml_kernels_<platform>
include_guard(GLOBAL)
include(HdmlPlatforms)

set(HDML_GENERATED_DIR "${PROJECT_BINARY_DIR}/generated")

function(hdml_generators)
    cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
    add_halide_generator(hdml.generator SOURCES ${ARG_SOURCES})
    if (TARGET hdml.generator)
        target_include_directories(hdml.generator PRIVATE "${PROJECT_SOURCE_DIR}")
        # Its code only states the pipelines (libHalide lowers and compiles them):
        # -O1 builds it in half the time, and every kernel waits for it.
        target_compile_options(hdml.generator PRIVATE -O1)
        _hdml_cpu_bitcode(hdml.generator)
    endif ()
endfunction()

# generators/cpu_functions.ll as LLVM bitcode for each CPU, and
# cpu_functions_avx512.ll for x86 (linked only into AVX-512 kernels), embedded
# in the generator (generators/cpu_functions.h). clang must be LLVM 14's, as
# Halide 14's: an older LLVM cannot read newer bitcode.
function(_hdml_cpu_bitcode generator)
    find_program(HDML_CLANG_14 NAMES clang-14 HINTS /usr/lib/llvm-14/bin)
    if (NOT HDML_CLANG_14)
        message(FATAL_ERROR "hdml: clang-14 (Debian package clang-14) compiles generators/cpu_functions.ll")
    endif ()
    set(dir "${HDML_GENERATED_DIR}/cpu_functions")
    # Halide's arch and OS, clang's triple for them (Halide 14's own spelling), the module.
    set(modules "X86 Linux x86_64-unknown-linux-gnu cpu_functions"
                "ARM Linux aarch64-unknown-linux-gnueabihf cpu_functions"
                "X86 Linux x86_64-unknown-linux-gnu cpu_functions_avx512")
    set(bitcodes "")
    set(entries "")
    foreach (module IN LISTS modules)
        separate_arguments(module)
        list(GET module 0 arch)
        list(GET module 1 os)
        list(GET module 2 triple)
        list(GET module 3 name)
        set(source "${PROJECT_SOURCE_DIR}/generators/${name}.ll")
        set(bitcode "${dir}/${triple}-${name}.bc")
        add_custom_command(OUTPUT "${bitcode}"
                           COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
                           COMMAND "${HDML_CLANG_14}" --target=${triple} -Wno-override-module -c -emit-llvm
                                   -x ir "${source}" -o "${bitcode}"
                           DEPENDS "${source}" VERBATIM)
        list(APPEND bitcodes "${bitcode}")
        list(APPEND entries "${arch}:${os}:${name}:${bitcode}")
    endforeach ()
    set(table "${dir}/cpu_bitcode.cpp")
    add_custom_command(OUTPUT "${table}"
                       COMMAND "${CMAKE_COMMAND}" "-DENTRIES=${entries}" "-DOUTPUT=${table}"
                               -P "${PROJECT_SOURCE_DIR}/cmake/EmbedCpuBitcode.cmake"
                       DEPENDS ${bitcodes} "${PROJECT_SOURCE_DIR}/cmake/EmbedCpuBitcode.cmake" VERBATIM)
    target_sources(${generator} PRIVATE "${table}")
endfunction()

function(hdml_operator)
    cmake_parse_arguments(ARG "" "TYPE;FACTORY" "SOURCES;TESTS;BENCHMARKS" ${ARGN})
    list(TRANSFORM ARG_SOURCES PREPEND "${PROJECT_SOURCE_DIR}/")
    set_property(GLOBAL APPEND PROPERTY HDML_OPERATOR_SOURCES ${ARG_SOURCES})
    set_property(GLOBAL APPEND PROPERTY HDML_OPERATOR_ROWS "HDML_OPERATOR(${ARG_TYPE}, ${ARG_FACTORY})")
    set_property(GLOBAL APPEND PROPERTY HDML_TESTS ${ARG_TESTS})
    set_property(GLOBAL APPEND PROPERTY HDML_BENCHMARKS ${ARG_BENCHMARKS})
endfunction()

# A JSON object's members as a list of "key=value" (params and thresholds:
# identifier keys, integer values).
function(hdml_json_assignments out_var object)
    set(pairs "")
    string(JSON count LENGTH "${object}")
    if (count GREATER 0)
        math(EXPR last "${count} - 1")
        foreach (index RANGE ${last})
            string(JSON key MEMBER "${object}" ${index})
            string(JSON value GET "${object}" "${key}")
            list(APPEND pairs "${key}=${value}")
        endforeach ()
    endif ()
    set(${out_var} "${pairs}" PARENT_SCOPE)
endfunction()

# `params_var` (a list of "key=value") with each member of `object` replacing its key's entry.
function(_hdml_override_params params_var object)
    set(params "${${params_var}}")
    hdml_json_assignments(pairs "${object}")
    foreach (pair IN LISTS pairs)
        string(REGEX MATCH "^[^=]*" key "${pair}")
        list(FILTER params EXCLUDE REGEX "^${key}=")
        list(APPEND params "${pair}")
    endforeach ()
    set(${params_var} "${params}" PARENT_SCOPE)
endfunction()

# The params in force for `platform`: schedules/params/<platform>.json with
# every HDML_TUNED profile of that platform overlaid (a profile's entries
# replace the same generator's or kernel's numbers; its "dispatch" replaces
# run-time thresholds). Profiles: names under schedules/tuned/ or file paths,
# each a params file with "platform" (and "machine", "date", "notes": not
# params). Read once per configure.
set(_hdml_profile_metadata platform machine date notes)
function(hdml_effective_params out_var platform)
    get_property(json GLOBAL PROPERTY HDML_TUNING_${platform})
    if (json)
        set(${out_var} "${json}" PARENT_SCOPE)
        return()
    endif ()
    set(file "${PROJECT_SOURCE_DIR}/schedules/params/${platform}.json")
    if (NOT EXISTS "${file}")
        message(FATAL_ERROR "hdml: no tuning file ${file} for platform ${platform}")
    endif ()
    file(READ "${file}" json)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
    foreach (profile IN LISTS HDML_TUNED)
        set(path "${PROJECT_SOURCE_DIR}/schedules/tuned/${profile}.json")
        if (EXISTS "${profile}")
            get_filename_component(path "${profile}" ABSOLUTE)
        elseif (NOT EXISTS "${path}")
            message(FATAL_ERROR "hdml: HDML_TUNED names '${profile}': neither a file nor ${path}")
        endif ()
        file(READ "${path}" tuned)
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${path}")
        string(JSON tuned_platform ERROR_VARIABLE error GET "${tuned}" platform)
        if (error OR NOT tuned_platform IN_LIST HDML_KNOWN_PLATFORMS)
            message(FATAL_ERROR "hdml: tuned profile ${path} has no \"platform\" of ${HDML_KNOWN_PLATFORMS}")
        endif ()
        if (NOT tuned_platform STREQUAL platform)
            continue()
        endif ()
        string(JSON scopes LENGTH "${tuned}")
        math(EXPR last_scope "${scopes} - 1")
        foreach (scope_index RANGE ${last_scope})
            string(JSON scope MEMBER "${tuned}" ${scope_index})
            if (scope IN_LIST _hdml_profile_metadata)
                continue()
            endif ()
            string(JSON entry GET "${tuned}" "${scope}")
            string(JSON has ERROR_VARIABLE missing GET "${json}" "${scope}")
            if (missing)
                string(JSON json SET "${json}" "${scope}" "{}")
            endif ()
            string(JSON count LENGTH "${entry}")
            if (count EQUAL 0)
                continue()
            endif ()
            math(EXPR last "${count} - 1")
            foreach (index RANGE ${last})
                string(JSON key MEMBER "${entry}" ${index})
                string(JSON value GET "${entry}" "${key}")
                if (NOT value MATCHES "^-?[0-9]+$")
                    message(FATAL_ERROR "hdml: tuned profile ${path}: ${scope}.${key} is '${value}', not an integer")
                endif ()
                string(JSON json SET "${json}" "${scope}" "${key}" "${value}")
                if (scope STREQUAL "dispatch")
                    set_property(GLOBAL APPEND PROPERTY HDML_TUNED_DISPATCH_${platform} "${key}")
                endif ()
            endforeach ()
        endforeach ()
        message(STATUS "hdml: ${platform} params overlaid with the tuned profile ${path}")
    endforeach ()
    set_property(GLOBAL PROPERTY HDML_TUNING_${platform} "${json}")
    set(${out_var} "${json}" PARENT_SCOPE)
endfunction()

# The tuning numbers for one kernel: its tuning scope's entry (hdml_kernel's
# TUNING, else its generator) of the effective params, overridden by an entry
# named after the kernel.
function(_hdml_tuning_params out_var platform generator kernel)
    hdml_effective_params(json ${platform})
    set(params "")
    foreach (scope IN ITEMS "${generator}" "${kernel}")
        string(JSON entry ERROR_VARIABLE missing GET "${json}" "${scope}")
        if (NOT missing)
            _hdml_override_params(params "${entry}")
        endif ()
    endforeach ()
    set(${out_var} "${params}" PARENT_SCOPE)
endfunction()

function(_hdml_anchor out_var platform)
    string(MAKE_C_IDENTIFIER "hdml_anchor_${HDML_${platform}_TRIPLE}" anchor)
    if (NOT TARGET ${anchor})
        add_halide_library(${anchor} FROM hdml.generator GENERATOR runtime_anchor
                           TARGETS ${HDML_${platform}_TRIPLE} FEATURES ${HDML_${platform}_FEATURES})
    endif ()
    get_property(anchors GLOBAL PROPERTY HDML_ANCHORS_${platform})
    if (NOT anchor IN_LIST anchors)
        set_property(GLOBAL APPEND PROPERTY HDML_ANCHORS_${platform} ${anchor})
    endif ()
    set(${out_var} ${anchor} PARENT_SCOPE)
endfunction()

# How kernel names spell each parameter, in name order: `key=prefix`; the
# value follows the prefix (layout=inner: inner; columns=whole: cols_whole;
# vector_bytes=16: vb16; loads=words: words; key_bits=32: keys32; period=2: period2). A key missing here is a
# manifest error.
set(_hdml_param_spelling dtype= itype= layout= op= columns=cols_ rows=rows_ loads= lane_merge=merge_ staging=staging_
                         max_line=maxline vector_bytes=vb key_bits=keys period=period)

# For sorted k=v parameters: the kernel name's suffix and the runtime's typed
# KernelParams expression (a misspelt key or value fails to compile there).
function(_hdml_kernel_params params suffix_var expression_var)
    set(expression "KernelParams{}")
    set(known "")
    foreach (param IN LISTS params)
        if (NOT param MATCHES "^([a-z_0-9]+)=([a-z_0-9]+)$")
            message(FATAL_ERROR "hdml_kernel: parameter '${param}' is not key=value")
        endif ()
        set(key "${CMAKE_MATCH_1}")
        set(value "${CMAKE_MATCH_2}")
        set(value_of_${key} "${value}")
        list(APPEND known "${key}")
        if (value MATCHES "^[0-9]+$")
            string(APPEND expression ".with(param::${key}{${value}})")
        else ()
            string(APPEND expression ".with(param::${key}::${value})")
        endif ()
    endforeach ()
    set(suffix "")
    foreach (spelling IN LISTS _hdml_param_spelling)
        string(REGEX MATCH "^([a-z_]+)=(.*)$" matched "${spelling}")
        set(key "${CMAKE_MATCH_1}")
        if (key IN_LIST known)
            list(APPEND suffix "${CMAKE_MATCH_2}${value_of_${key}}")
            list(REMOVE_ITEM known "${key}")
        endif ()
    endforeach ()
    if (known)
        message(FATAL_ERROR "hdml_kernel: parameter(s) ${known} need a spelling in _hdml_param_spelling")
    endif ()
    list(JOIN suffix "_" suffix)
    set(${suffix_var} "${suffix}" PARENT_SCOPE)
    set(${expression_var} "${expression}" PARENT_SCOPE)
endfunction()

# HDML_TUNE_CANDIDATES (hdml-tune plan writes it): a JSON file
#   {"platform": P, "candidates": [{"id": ID, "kernels": {KERNEL: {param: value}}}]}
# For each candidate, each kernel it names (without the platform suffix) is
# built again with those numbers over its own, as <kernel>_<P>_<ID> (outside
# `all`); hdml_finalize writes the candidate's kernel table, the normal one with
# those kernels substituted, and runtime/ links a libhdml per candidate (the
# defaults too, as a candidate without kernels: every candidate alike).
function(_hdml_candidates out_var)
    get_property(json GLOBAL PROPERTY HDML_TUNE_CANDIDATES_JSON)
    if (NOT json AND HDML_TUNE_CANDIDATES)
        file(READ "${HDML_TUNE_CANDIDATES}" json)
        set_property(GLOBAL PROPERTY HDML_TUNE_CANDIDATES_JSON "${json}")
    endif ()
    set(${out_var} "${json}" PARENT_SCOPE)
endfunction()

# The ids of HDML_TUNE_CANDIDATES' candidates for `platform` (none when unset).
function(hdml_candidate_ids out_var platform)
    _hdml_candidates(json)
    set(ids "")
    if (json)
        string(JSON candidate_platform GET "${json}" platform)
        string(JSON count LENGTH "${json}" candidates)
        if (candidate_platform STREQUAL platform AND count GREATER 0)
            math(EXPR last "${count} - 1")
            foreach (index RANGE ${last})
                string(JSON id GET "${json}" candidates ${index} id)
                list(APPEND ids ${id})
            endforeach ()
        endif ()
    endif ()
    set(${out_var} "${ids}" PARENT_SCOPE)
endfunction()

function(_hdml_candidate_kernels platform lib name generator features anchor params)
    _hdml_candidates(json)
    if (NOT json)
        return()
    endif ()
    string(JSON candidate_platform GET "${json}" platform)
    if (NOT candidate_platform STREQUAL platform)
        return()
    endif ()
    string(JSON count LENGTH "${json}" candidates)
    if (count EQUAL 0)
        return()
    endif ()
    math(EXPR last "${count} - 1")
    foreach (index RANGE ${last})
        string(JSON id GET "${json}" candidates ${index} id)
        string(JSON entry ERROR_VARIABLE missing GET "${json}" candidates ${index} kernels "${name}")
        if (missing)
            continue()
        endif ()
        set(candidate_params "${params}")
        _hdml_override_params(candidate_params "${entry}")
        add_halide_library(${lib}_${id} FROM hdml.generator
                           GENERATOR ${generator}
                           FUNCTION_NAME ${lib}_${id}
                           TARGETS ${HDML_${platform}_TARGETS}
                           FEATURES ${features}
                           USE_RUNTIME ${anchor}.runtime
                           PARAMS ${candidate_params})
        set_target_properties(${lib}_${id} PROPERTIES EXCLUDE_FROM_ALL TRUE)
        set_property(GLOBAL APPEND PROPERTY HDML_TUNE_KERNELS_${platform}_${id} ${lib})
    endforeach ()
endfunction()

function(hdml_kernel)
    cmake_parse_arguments(ARG "SMALL_BUFFERS" "FAMILY;GENERATOR;TUNING" "PARAMS;PLATFORMS" ${ARGN})
    if (NOT ARG_TUNING)
        set(ARG_TUNING ${ARG_GENERATOR})
    endif ()
    list(SORT ARG_PARAMS)
    _hdml_kernel_params("${ARG_PARAMS}" suffix params_expression)
    set(name "hdml_${ARG_GENERATOR}_${suffix}")
    foreach (platform IN LISTS ARG_PLATFORMS)
        if (NOT platform IN_LIST HDML_PLATFORMS)
            continue()
        endif ()
        _hdml_anchor(anchor ${platform})
        _hdml_tuning_params(tuning ${platform} ${ARG_TUNING} ${name})
        set(lib ${name}_${platform})
        set(features ${HDML_${platform}_FEATURES})
        if (ARG_SMALL_BUFFERS)
            list(REMOVE_ITEM features large_buffers)
        endif ()
        # HDML_STMT_KERNELS: Halide's lowered loop nest of matching kernels, <build>/<kernel>.stmt.
        set(stmt "")
        if (HDML_STMT_KERNELS AND lib MATCHES "${HDML_STMT_KERNELS}")
            set(stmt STMT stmt_file)
        endif ()
        add_halide_library(${lib} FROM hdml.generator
                           GENERATOR ${ARG_GENERATOR}
                           FUNCTION_NAME ${lib}
                           TARGETS ${HDML_${platform}_TARGETS}
                           FEATURES ${features}
                           USE_RUNTIME ${anchor}.runtime
                           PARAMS ${ARG_PARAMS} ${tuning}
                           ${stmt})
        set_property(GLOBAL APPEND PROPERTY HDML_KERNELS_${platform} ${lib})
        set_property(GLOBAL APPEND PROPERTY HDML_KERNEL_ROWS_${platform}
                     "HDML_KERNEL(${ARG_FAMILY}, ${params_expression}, ${lib})")
        _hdml_candidate_kernels(${platform} ${lib} ${name} ${ARG_GENERATOR} "${features}" ${anchor}
                                "${ARG_PARAMS};${tuning}")
    endforeach ()
endfunction()

# Writes `content` to `path` only when it changed, so rebuilds stay incremental.
function(_hdml_write_if_changed path content)
    if (EXISTS "${path}")
        file(READ "${path}" old)
        if (old STREQUAL content)
            return()
        endif ()
    endif ()
    file(WRITE "${path}" "${content}")
endfunction()

function(hdml_finalize)
    get_property(rows GLOBAL PROPERTY HDML_OPERATOR_ROWS)
    list(JOIN rows "\n" text)
    _hdml_write_if_changed("${HDML_GENERATED_DIR}/hdml/operators.inc" "// Generated from ops.cmake.\n${text}\n")

    foreach (platform IN LISTS HDML_PLATFORMS)
        get_property(kernels GLOBAL PROPERTY HDML_KERNELS_${platform})
        get_property(anchors GLOBAL PROPERTY HDML_ANCHORS_${platform})
        get_property(rows GLOBAL PROPERTY HDML_KERNEL_ROWS_${platform})
        set(includes "${kernels}")
        list(TRANSFORM includes PREPEND "#include \"")
        list(TRANSFORM includes APPEND ".h\"")
        list(JOIN includes "\n" includes)
        list(JOIN rows "\n" rows)
        _hdml_write_if_changed("${HDML_GENERATED_DIR}/hdml/kernels_${platform}.h"
                               "// Generated from ops.cmake.\n#pragma once\n${includes}\n")
        _hdml_write_if_changed("${HDML_GENERATED_DIR}/hdml/kernels_${platform}.inc"
                               "// Generated from ops.cmake.\n${rows}\n")
        # Each tuning candidate's table: these rows, its kernels substituted.
        hdml_candidate_ids(ids ${platform})
        foreach (id IN LISTS ids)
            get_property(substituted GLOBAL PROPERTY HDML_TUNE_KERNELS_${platform}_${id})
            set(candidate_rows "${rows}")
            set(candidate_includes "${includes}")
            foreach (lib IN LISTS substituted)
                string(REPLACE ", ${lib})" ", ${lib}_${id})" candidate_rows "${candidate_rows}")
                string(APPEND candidate_includes "\n#include \"${lib}_${id}.h\"")
            endforeach ()
            _hdml_write_if_changed("${HDML_GENERATED_DIR}/hdml/kernels_${platform}_${id}.h"
                                   "// Generated: tuning candidate ${id}.\n#pragma once\n${candidate_includes}\n")
            _hdml_write_if_changed("${HDML_GENERATED_DIR}/hdml/kernels_${platform}_${id}.inc"
                                   "// Generated: tuning candidate ${id}.\n${candidate_rows}\n")
        endforeach ()

        # Each kernel appends its targets to its runtime's list, and Halide 14 keeps the repeats: hundreds of
        # tuning candidates' kernels took the runtime's command past the kernel's argument limit. One of each.
        # Nor Halide's d3d12compute module: hdml implements what D3D12 kernels call (runtime/d3d12/).
        foreach (anchor IN LISTS anchors)
            get_property(runtime_targets TARGET ${anchor}.runtime PROPERTY Halide_RT_TARGETS)
            list(TRANSFORM runtime_targets REPLACE "-d3d12compute" "")
            list(REMOVE_DUPLICATES runtime_targets)
            set_property(TARGET ${anchor}.runtime PROPERTY Halide_RT_TARGETS "${runtime_targets}")
        endforeach ()

        get_target_property(cross ${anchors} IMPORTED)
        if (cross)
            # Cross-compiled kernels are imported archives: build them (and the
            # runtime, which Halide 14 leaves out of `all`) as part of `all`.
            set(updates "${kernels};${anchors}")
            list(TRANSFORM updates APPEND ".update")
            add_custom_target(hdml_kernels_${platform} ALL DEPENDS ${anchors}.runtime.update)
            add_dependencies(hdml_kernels_${platform} ${updates})
        else ()
            add_library(hdml_kernels_${platform} INTERFACE)
            target_link_libraries(hdml_kernels_${platform} INTERFACE ${kernels} ${anchors} ${anchors}.runtime)
            target_include_directories(hdml_kernels_${platform} INTERFACE "${CMAKE_CURRENT_BINARY_DIR}")
        endif ()
    endforeach ()
endfunction()
