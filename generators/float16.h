// float16 <-> float32 in the kernels. CUDA kernels use Halide's cast, which
// reaches PTX as one cvt per element (the integer code below took ~11
// instructions per element: float16 reductions ran 57-85% of copy speed where
// float32 ran 90-100%). Where the CPU converts in hardware (x86 with F16C,
// aarch64), a conversion is a call to a function of cpu_functions.ll, which
// the generator links into the kernel's module and LLVM inlines as one
// instruction per vector; elsewhere (D3D12 kernels, x86 SSE4.1 and baseline)
// the integer code below. Halide 14's own cast converts with ~14 integer
// instructions per vector on every CPU.
#pragma once

#include "Halide.h"
#include "generators/cpu_functions.h"

#include <memory>

namespace hdml {

// Conversions between the data type and the accumulator type, for one kernel.
class Conversions {
public:
    Conversions(const Halide::Target &target, std::shared_ptr<Halide::GeneratorContext::ExternsMap> externs);
    // To the accumulator type: float16 -> float32, others by cast.
    Halide::Expr widen(const Halide::Expr &v, Halide::Type acc_type) const;
    // Back to the data type: float16 rounds to nearest even (overflow gives
    // infinity, NaN a quiet NaN); integers keep the low bits (wrapping).
    Halide::Expr narrow(const Halide::Expr &v, Halide::Type t) const;

private:
    Halide::Target target_;
    std::shared_ptr<Halide::GeneratorContext::ExternsMap> externs_;
    const CpuBitcode *instructions_;  // the hardware's conversions, or null
    bool cuda_;  // Halide's cast: PTX's cvt
};

// The integer versions, vectorisable on every target.
Halide::Expr widen_float16_in_software(const Halide::Expr &h);
Halide::Expr narrow_to_float16_in_software(const Halide::Expr &f);

}  // namespace hdml
