# The platforms hdml generates kernels for. Each one is a Halide target list
# (explicit triples only: `host` would bake in the build machine's CPU), the
# features every kernel of it gets, and the tuning file under schedules/params.
#
#   x86    x86-64 Linux (or Windows, in a Windows build), multi-target: AVX-512 ->
#          AVX2+FMA+F16C -> SSE4.1 -> baseline, chosen once at run time by Halide's
#          CPU-feature check.
#   arm    aarch64 Linux (cross-compiled; NEON is baseline on aarch64).
#   cuda   x86-64 Linux host code with CUDA device kernels (PTX, JIT-compiled by
#          the driver on newer GPUs; Halide 14 stops at capability 8.6).
#   d3d12  x86-64 Windows with D3D12 compute kernels (HLSL, compiled at run time).

set(HDML_KNOWN_PLATFORMS x86 arm cuda d3d12)

set(HDML_x86_TARGETS
    x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41
    x86-64-linux-avx-avx2-f16c-fma-sse41
    x86-64-linux-sse41
    x86-64-linux)
set(HDML_x86_TRIPLE x86-64-linux)
# HDML_X86_ISA: a subset of the variants above, named avx512, avx2, sse41 or
# baseline and listed in that order (the last one is what runs on a CPU that
# lacks the others): one, for a binary tuned for (and running on) one machine,
# whose build generates a quarter of the code; or e.g. avx2;baseline, for a
# portable binary built in half the time.
# HDML_X86_VARIANTS: the names of the variants built (the tests take them).
set(HDML_X86_VARIANTS avx512 avx2 sse41 baseline)
if (HDML_X86_ISA AND NOT HDML_X86_ISA STREQUAL "all")
    set(_isa_chosen "")
    set(_isa_last -1)
    foreach (_isa IN LISTS HDML_X86_ISA)
        list(FIND HDML_X86_VARIANTS "${_isa}" _isa_index)
        if (_isa_index LESS 0)
            message(FATAL_ERROR "hdml: HDML_X86_ISA is '${HDML_X86_ISA}': '${_isa}' is not a variant; "
                                "it must be all, or one or more of avx512, avx2, sse41, baseline")
        endif ()
        if (NOT _isa_index GREATER _isa_last)
            message(FATAL_ERROR "hdml: HDML_X86_ISA is '${HDML_X86_ISA}': variants must be listed once each, "
                                "in the order avx512;avx2;sse41;baseline (the last one is the fallback)")
        endif ()
        set(_isa_last ${_isa_index})
        list(GET HDML_x86_TARGETS ${_isa_index} _isa_target)
        list(APPEND _isa_chosen ${_isa_target})
    endforeach ()
    set(HDML_x86_TARGETS ${_isa_chosen})
    set(HDML_X86_VARIANTS ${HDML_X86_ISA})
endif ()
list(LENGTH HDML_X86_VARIANTS HDML_X86_VARIANT_COUNT)

# A Windows build's CPU kernels: the same variants for x86-64-windows (COFF
# objects and the Win64 calling convention; Halide's Windows runtime).
if (CMAKE_SYSTEM_NAME STREQUAL "Windows")
    list(TRANSFORM HDML_x86_TARGETS REPLACE "^x86-64-linux" "x86-64-windows")
    set(HDML_x86_TRIPLE x86-64-windows)
endif ()

set(HDML_arm_TARGETS arm-64-linux)
set(HDML_arm_TRIPLE arm-64-linux)

set(HDML_cuda_TARGETS x86-64-linux-cuda-cuda_capability_80)
set(HDML_cuda_TRIPLE x86-64-linux)

set(HDML_d3d12_TARGETS x86-64-windows-d3d12compute)
set(HDML_d3d12_TRIPLE x86-64-windows)

# user_context: every call carries a per-call context, so errors (and later
# device contexts) are tied to the call; large_buffers: tensors may exceed
# 2 GiB. D3D12 (HLSL SM 5.1) has no 64-bit integers for large_buffers' address
# arithmetic; its buffers stay below 2 GiB.
set(HDML_x86_FEATURES user_context large_buffers)
set(HDML_arm_FEATURES user_context large_buffers)
set(HDML_cuda_FEATURES user_context large_buffers)
set(HDML_d3d12_FEATURES user_context)
