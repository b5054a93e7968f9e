// Helpers shared by every hdml generator: element types, accumulator types and
// order-preserving integer keys. Only algorithm-level facts live here; nothing
// in this file knows about a target or a schedule.
#pragma once

#include "Halide.h"

#include <cmath>
#include <map>
#include <string>

namespace hdml {

// DirectML's data types, as GeneratorParam values. Halide 14's own "type" strings
// lack int64/uint64, so generators take this enum and set their buffer types in
// configure().
enum class ElemType { Float16, Float32, Float64, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64 };

inline const std::map<std::string, ElemType> &elem_type_names() {
    static const std::map<std::string, ElemType> names = {
        {"float16", ElemType::Float16}, {"float32", ElemType::Float32}, {"float64", ElemType::Float64},
        {"int8", ElemType::Int8},       {"int16", ElemType::Int16},     {"int32", ElemType::Int32},
        {"int64", ElemType::Int64},     {"uint8", ElemType::UInt8},     {"uint16", ElemType::UInt16},
        {"uint32", ElemType::UInt32},   {"uint64", ElemType::UInt64},
    };
    return names;
}

inline Halide::Type halide_type_of(ElemType t) {
    using namespace Halide;
    switch (t) {
    case ElemType::Float16: return Float(16);
    case ElemType::Float32: return Float(32);
    case ElemType::Float64: return Float(64);
    case ElemType::Int8: return Int(8);
    case ElemType::Int16: return Int(16);
    case ElemType::Int32: return Int(32);
    case ElemType::Int64: return Int(64);
    case ElemType::UInt8: return UInt(8);
    case ElemType::UInt16: return UInt(16);
    case ElemType::UInt32: return UInt(32);
    case ElemType::UInt64: return UInt(64);
    }
    return Halide::Type();
}

// Where the reduced dimension sits relative to the kept dimensions in memory.
// Every kernel of a reducing family takes input(i, r, o) and writes output(i, o):
//  - inner: i has extent 1; r is the fastest-moving dimension (vectorise along r);
//  - outer: i is a kept dimension that moves faster than r (vectorise along i).
enum class Layout { Inner, Outer };

inline const std::map<std::string, Layout> &layout_names() {
    static const std::map<std::string, Layout> names = {{"inner", Layout::Inner}, {"outer", Layout::Outer}};
    return names;
}

// DirectML tensors have arbitrary element strides (0 = broadcast); Halide
// otherwise assumes a unit innermost stride.
template <typename Param>
void allow_any_strides(Param &buffer) {
    buffer.dim(0).set_stride(Halide::Expr());
}

// The buffers of a kernel with a layout (reductions, scans): any strides, as
// DirectML's; and for the inner layout, i has extent 1 (the runtime folds every
// kept dim into o or its C++ loops), which gives schedules constant-size buffers,
// unless `any_inner_i` (a kernel that also takes the outer layout's few columns
// as rows: i any extent).
// output_i_dim: where the output's i is (1 for ARGMAX/ARGMIN's (word, i, o)
// output, whose words stay adjacent).
template <typename In, typename Out>
void apply_layout_contract(Layout layout, In &input, Out &output, int output_i_dim = 0, bool any_inner_i = false) {
    allow_any_strides(input);
    if (output_i_dim == 0) allow_any_strides(output);
    if (layout == Layout::Inner && !any_inner_i) {
        input.dim(0).set_bounds(0, 1);
        output.dim(output_i_dim).set_bounds(0, 1);
    }
}

// A kernel that loads its input's rows (dim 1) in vectors of `lanes`
// elements: rows unit-stride and a whole number of vectors long, every row
// starting on a vector (the other dims' strides multiples of lanes), mins 0.
// Halide checks these at each call and proves the loads aligned from them;
// aligning the buffer's address is the caller's part.
template <typename In>
void apply_vector_row_contract(In &input, int lanes) {
    input.dim(1).set_stride(1);
    input.dim(1).set_extent(input.dim(1).extent() / lanes * lanes);
    for (int d : {0, 2}) input.dim(d).set_stride(input.dim(d).stride() / lanes * lanes);
    for (int d = 0; d < 3; ++d) input.dim(d).set_min(0);
}

inline Halide::Expr all_ones(Halide::Type t) {
    return Halide::cast(t, -1);
}

// The top bit of an unsigned type: a float's sign bit, read as its bits.
inline Halide::Expr top_bit(Halide::Type u) {
    return Halide::cast(u, 1) << (u.bits() - 1);
}

// An unsigned integer of the same width whose unsigned order matches the value
// order of v (floats: IEEE total order for non-NaN values; -0 < +0).
inline Halide::Expr order_key(const Halide::Expr &v) {
    using namespace Halide;
    const Type t = v.type();
    const Type u = UInt(t.bits());
    const Expr top = top_bit(u);
    if (t.is_uint()) return v;
    if (t.is_int()) return reinterpret(u, v) ^ top;
    const Expr b = reinterpret(u, v);
    return select((b & top) != 0, ~b, b | top);
}

// Classify a float from its bits. (Halide 14 miscompiles vectorised is_nan on
// float16 values converted in software, so the kernels never use it.)
inline Halide::Expr magnitude_bits(const Halide::Expr &v) {
    using namespace Halide;
    const Type u = UInt(v.type().bits());
    return reinterpret(u, v) & ~top_bit(u);
}
inline Halide::Expr infinity_bits(Halide::Type float_type) {
    using namespace Halide;
    const int bits = float_type.bits();
    const int mantissa = bits == 16 ? 10 : bits == 32 ? 23 : 52;
    const Type u = UInt(bits);
    return (all_ones(u) >> 1) ^ ((cast(u, 1) << mantissa) - 1);
}
inline Halide::Expr is_nan_value(const Halide::Expr &v) {
    return magnitude_bits(v) > infinity_bits(v.type());
}
inline Halide::Expr is_finite_value(const Halide::Expr &v) {
    return magnitude_bits(v) < infinity_bits(v.type());
}

// -0.0 of a float type, the IEEE identity of float sums: written as bits, which
// no floating-point rewrite of the simplifier can turn into +0.0.
inline Halide::Expr negative_zero(Halide::Type float_type) {
    return Halide::reinterpret(float_type, top_bit(Halide::UInt(float_type.bits())));
}

// v's bits as an unsigned `sign_type` with v's sign in its top bit (the bits
// themselves where the widths match: no instruction). The minimum over a row
// has its top bit set exactly when every element's sign bit is set.
inline Halide::Expr sign_at_top(const Halide::Expr &v, Halide::Type sign_type) {
    using namespace Halide;
    const int bits = v.type().bits(), to = sign_type.bits();
    const Expr u = reinterpret(UInt(bits), v);
    if (to == bits) return u;
    return to < bits ? cast(sign_type, u >> (bits - to)) : cast(sign_type, u) << (to - bits);
}

// Natural log with IEEE 754 results where Halide 14's log (a polynomial for
// normal positive numbers) is wrong: NaN stays NaN, x < 0 gives NaN, ±0 gives
// -inf, +inf gives +inf, and subnormals are scaled into the normal range first.
inline Halide::Expr log_ieee(const Halide::Expr &x) {
    using namespace Halide;
    const Type t = x.type(), u = UInt(t.bits());
    auto constant = [&](double v) { return Internal::make_const(t, v); };
    const int mantissa = t.bits() == 64 ? 52 : 23;
    const Expr subnormal = x < constant(std::ldexp(1.0, t.bits() == 64 ? -1022 : -126));
    const Expr scaled = select(subnormal, x * constant(std::ldexp(1.0, mantissa + 1)), x);
    const Expr log_x = log(scaled) - select(subnormal, constant((mantissa + 1) * 0.6931471805599453), constant(0));
    const Expr quiet_nan = reinterpret(t, infinity_bits(t) | (cast(u, 1) << (mantissa - 1)));
    const Expr minus_infinity = reinterpret(t, infinity_bits(t) | top_bit(u));
    return select(is_nan_value(x), x, x < constant(0), quiet_nan, x == constant(0), minus_infinity,
                  is_finite_value(x), log_x, x);
}

// Inverse of order_key for a float type.
inline Halide::Expr float_from_order_key(const Halide::Expr &k, Halide::Type float_type) {
    using namespace Halide;
    const Type u = k.type();
    const Expr top = top_bit(u);
    return reinterpret(float_type, select((k & top) != 0, k & ~top, ~k));
}

}  // namespace hdml
