#include "generators/float16.h"

namespace hdml {

using namespace Halide;

Conversions::Conversions(const Target &target, std::shared_ptr<GeneratorContext::ExternsMap> externs)
    : target_(target), externs_(std::move(externs)), instructions_(cpu_bitcode_for(target)),
      cuda_(target.has_feature(Target::CUDA)) {
}

Expr Conversions::widen(const Expr &v, Type acc_type) const {
    if (v.type() != Float(16) || acc_type != Float(32) || cuda_) return cast(acc_type, v);
    if (!instructions_) return widen_float16_in_software(v);
    link_cpu_functions(target_, *externs_, *instructions_);
    return Internal::Call::make(Float(32, v.type().lanes()), "hdml_f16_to_f32", {reinterpret<uint16_t>(v)},
                                Internal::Call::PureExtern);
}

Expr Conversions::narrow(const Expr &v, Type t) const {
    if (t == Float(16) && v.type() == Float(32) && !cuda_) {
        if (!instructions_) return narrow_to_float16_in_software(v);
        link_cpu_functions(target_, *externs_, *instructions_);
        return reinterpret<float16_t>(
            Internal::Call::make(UInt(16, v.type().lanes()), "hdml_f32_to_f16", {v}, Internal::Call::PureExtern));
    }
    if (t.is_int()) return reinterpret(t, cast(UInt(t.bits()), v));
    return cast(t, v);
}

// Normals and subnormals: the bits shifted into float32 position and scaled by
// 2^112 (the exponent-bias difference); infinities and NaN keep an all-ones exponent.
Expr widen_float16_in_software(const Expr &h) {
    const Expr u = cast<uint32_t>(reinterpret<uint16_t>(h));
    const Expr magnitude = u & 0x7FFF;
    const Expr sign = (u & 0x8000) << 16;
    const Expr scaled = reinterpret<uint32_t>(reinterpret<float>(magnitude << 13) * 5.192296858534828e33f);
    const Expr special = (magnitude << 13) | 0x7F800000;
    return reinterpret<float>(select(magnitude >= 0x7C00, special, scaled) | sign);
}

// Subnormal results come from adding 0.5f, which puts the float16 subnormal
// step (2^-24) at the last mantissa bit and lets the FPU round.
Expr narrow_to_float16_in_software(const Expr &f) {
    const Expr bits = reinterpret<uint32_t>(f);
    const Expr sign = (bits >> 16) & 0x8000;
    const Expr magnitude = bits & 0x7FFFFFFF;
    const Expr normal = (magnitude - 0x38000000 + 0xFFF + ((magnitude >> 13) & 1)) >> 13;
    const Expr subnormal = reinterpret<uint32_t>(reinterpret<float>(magnitude) + 0.5f) - 0x3F000000;
    const Expr h = select(magnitude > 0x7F800000, 0x7E00,
                          magnitude >= 0x477FF000, 0x7C00,
                          magnitude >= 0x38800000, normal, subnormal);
    return reinterpret<float16_t>(cast<uint16_t>(h | sign));
}

}  // namespace hdml
