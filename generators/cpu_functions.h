// LLVM functions that CPU kernels call (generators/cpu_functions.ll): float16
// conversions (generators/float16.h) and a software prefetch
// (generators/prefetch.h); for x86 kernels built for AVX-512, the instructions
// of a cheaper exp (cpu_functions_avx512.ll, generators/exp.h). The build
// compiles each file for its CPUs and embeds the bitcode here; a kernel that
// calls one links its module, where LLVM inlines it.
#pragma once

#include "Halide.h"

#include <cstdint>
#include <vector>

namespace hdml {

// generators/<module>.ll compiled for one CPU (the build generates the table).
struct CpuBitcode {
    Halide::Target::Arch arch;
    Halide::Target::OS os;
    const char *module;
    std::vector<uint8_t> code;
};
const std::vector<CpuBitcode> &cpu_bitcode();

// The functions for the target's CPU, or null: GPU kernels run where they do
// not exist, the build compiles them for 64-bit x86 and aarch64 Linux only,
// and x86 needs F16C (the float16 conversions).
const CpuBitcode *cpu_bitcode_for(const Halide::Target &target);

// cpu_functions_avx512.ll where the target is x86 with AVX-512 (Skylake's set,
// DQ included), or null.
const CpuBitcode *avx512_bitcode_for(const Halide::Target &target);

// Links `bitcode` into the kernel's module (once: by its module's name).
void link_cpu_functions(const Halide::Target &target, Halide::GeneratorContext::ExternsMap &externs,
                        const CpuBitcode &bitcode);

}  // namespace hdml
