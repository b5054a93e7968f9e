#include "generators/cpu_functions.h"

namespace hdml {

using namespace Halide;

namespace {

const CpuBitcode *find_module(const Target &target, const std::string &module) {
    if (target.has_gpu_feature() || target.bits != 64) return nullptr;
    for (const CpuBitcode &bitcode : cpu_bitcode()) {
        if (bitcode.arch == target.arch && bitcode.os == target.os && bitcode.module == module) return &bitcode;
    }
    return nullptr;
}

}  // namespace

const CpuBitcode *cpu_bitcode_for(const Target &target) {
    // Linking the module brings every function; without F16C, LLVM would
    // lower the float16 conversions to library calls that no kernel links.
    if (target.arch == Target::X86 && !target.has_feature(Target::F16C)) return nullptr;
    return find_module(target, "cpu_functions");
}

const CpuBitcode *avx512_bitcode_for(const Target &target) {
    if (target.arch != Target::X86 || !target.has_feature(Target::AVX512_Skylake)) return nullptr;
    return find_module(target, "cpu_functions_avx512");
}

void link_cpu_functions(const Target &target, GeneratorContext::ExternsMap &externs, const CpuBitcode &bitcode) {
    const std::string name = std::string("hdml.") + bitcode.module;
    if (externs.count(name) == 0) externs.emplace(name, ExternalCode::bitcode_wrapper(target, bitcode.code, name));
}

}  // namespace hdml
