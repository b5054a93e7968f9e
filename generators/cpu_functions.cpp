#include "generators/cpu_functions.h"

namespace hdml {

using namespace Halide;

const CpuBitcode *cpu_bitcode_for(const Target &target) {
    if (target.has_gpu_feature() || target.bits != 64) return nullptr;
    // Linking the module brings every function; without F16C, LLVM would
    // lower the float16 conversions to library calls that no kernel links.
    if (target.arch == Target::X86 && !target.has_feature(Target::F16C)) return nullptr;
    for (const CpuBitcode &bitcode : cpu_bitcode()) {
        if (bitcode.arch == target.arch && bitcode.os == target.os) return &bitcode;
    }
    return nullptr;
}

void link_cpu_functions(const Target &target, GeneratorContext::ExternsMap &externs, const CpuBitcode &bitcode) {
    const std::string name = "hdml.cpu_functions";
    if (externs.count(name) == 0) externs.emplace(name, ExternalCode::bitcode_wrapper(target, bitcode.code, name));
}

}  // namespace hdml
