// LLVM functions that CPU kernels call (generators/cpu_functions.ll): float16
// conversions (generators/float16.h) and a software prefetch
// (generators/prefetch.h). The build compiles the file for each CPU and embeds
// the bitcode here; a kernel that calls one links it into its module, where
// LLVM inlines it.
#pragma once

#include "Halide.h"

#include <cstdint>
#include <vector>

namespace hdml {

// generators/cpu_functions.ll compiled for one CPU (the build generates the table).
struct CpuBitcode {
    Halide::Target::Arch arch;
    Halide::Target::OS os;
    std::vector<uint8_t> code;
};
const std::vector<CpuBitcode> &cpu_bitcode();

// The functions for the target's CPU, or null: GPU kernels run where they do
// not exist, the build compiles them for 64-bit x86 and aarch64 Linux only,
// and x86 needs F16C (the float16 conversions).
const CpuBitcode *cpu_bitcode_for(const Halide::Target &target);

// Links `bitcode` into the kernel's module (once: by name).
void link_cpu_functions(const Halide::Target &target, Halide::GeneratorContext::ExternsMap &externs,
                        const CpuBitcode &bitcode);

}  // namespace hdml
