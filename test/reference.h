// The independent reference for the reducing operators: naive loops over the
// N-D index space, double accumulation for floats, modular 64-bit arithmetic
// for integers, written from DirectML's documented semantics only.
#pragma once

#include "test_tensor.h"

#include <cmath>
#include <limits>

namespace hdml_test {

struct RefValue {
    double value = 0;     // float results
    uint64_t bits = 0;    // integer results (modular) and indices
    double scale = 0;     // magnitude of the terms, for float tolerances
    uint64_t count = 0;   // number of reduced elements
};

// The float order of every kernel (README): -0 below +0. NaN is handled apart:
// MAX, MIN and ARGMAX/ARGMIN pick it whichever the direction.
inline bool ordered_less(double a, double b) {
    return a == 0 && b == 0 ? std::signbit(a) && !std::signbit(b) : a < b;
}

// MAX (or MIN) of two floats in that order; NaN if either is.
inline double ordered_extreme(double a, double b, bool max) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
    return (max ? ordered_less(a, b) : ordered_less(b, a)) ? b : a;
}

// Reduces `in` over the axes in `mask` at the output position `out_index`
// (size-1 on reduced axes). Argmax/argmin return the row-major index over the
// reduced axes in increasing axis order; ties pick the first (or last) index;
// NaN counts as larger than everything for both.
inline RefValue reference_reduce(const TestTensor &in, uint32_t mask, const std::vector<uint32_t> &out_index,
                                 DML_REDUCE_FUNCTION fn, bool last_index = false) {
    const bool fl = is_float(in.type);
    const int bits = (int)bytes_of(in.type) * 8;

    // Visit the reduced sub-tensor in row-major order, its offset stepped
    // along. The buffers are reused from call to call: tests call this once
    // per output, millions of times, and fresh allocations each time (regrown
    // on tall columns) cost more than the kernels under test.
    thread_local std::vector<uint32_t> reduced_dims, sub;
    thread_local std::vector<double> values;
    thread_local std::vector<uint64_t> raw;
    reduced_dims.clear();
    values.clear();
    raw.clear();
    uint64_t off = 0;
    for (uint32_t d = 0; d < in.sizes.size(); ++d) {
        if ((mask >> d) & 1) {
            reduced_dims.push_back(d);
        } else {
            off += (uint64_t)out_index[d] * in.strides[d];
        }
    }
    sub.assign(reduced_dims.size(), 0);
    while (true) {
        if (fl) {
            values.push_back(in.float_at(off));
        } else {
            raw.push_back(in.bits_at(off));
        }
        size_t k = reduced_dims.size();
        while (k-- > 0) {
            const uint32_t d = reduced_dims[k];
            if (++sub[k] < in.sizes[d]) {
                off += in.strides[d];
                break;
            }
            off -= (uint64_t)(in.sizes[d] - 1) * in.strides[d];
            sub[k] = 0;
        }
        if (k == (size_t)-1) break;
    }
    const size_t n = fl ? values.size() : raw.size();
    RefValue r;
    r.count = n;

    if (fn == DML_REDUCE_FUNCTION_ARGMAX || fn == DML_REDUCE_FUNCTION_ARGMIN) {
        const bool want_max = fn == DML_REDUCE_FUNCTION_ARGMAX;
        size_t best = 0;
        auto better = [&](size_t a, size_t b) -> int {  // >0: a beats b, 0: tie
            if (fl) {
                const bool na = std::isnan(values[a]), nb = std::isnan(values[b]);
                if (na || nb) return na && nb ? 0 : (na ? 1 : -1);
                if (!ordered_less(values[a], values[b]) && !ordered_less(values[b], values[a])) return 0;
                return ordered_less(values[b], values[a]) == want_max ? 1 : -1;
            }
            if (raw[a] == raw[b]) return 0;
            const bool greater = is_signed_int(in.type) ? (int64_t)raw[a] > (int64_t)raw[b] : raw[a] > raw[b];
            return greater == want_max ? 1 : -1;
        };
        for (size_t k = 1; k < n; ++k) {
            const int c = better(k, best);
            if (c > 0 || (c == 0 && last_index)) best = k;
        }
        r.bits = best;
        return r;
    }

    if (fl) {
        double acc = 0, scale = 0;
        switch (fn) {
        case DML_REDUCE_FUNCTION_SUM:
        case DML_REDUCE_FUNCTION_AVERAGE:
        case DML_REDUCE_FUNCTION_LOG_SUM:
            for (double v : values) acc += v, scale += std::fabs(v);
            if (fn == DML_REDUCE_FUNCTION_AVERAGE) acc /= (double)n, scale /= (double)n;
            if (fn == DML_REDUCE_FUNCTION_LOG_SUM) scale = scale / std::fabs(acc), acc = std::log(acc);
            break;
        case DML_REDUCE_FUNCTION_L1:
            for (double v : values) acc += std::fabs(v);
            scale = acc;
            break;
        case DML_REDUCE_FUNCTION_SUM_SQUARE:
        case DML_REDUCE_FUNCTION_L2:
            for (double v : values) acc += v * v;
            scale = acc;
            if (fn == DML_REDUCE_FUNCTION_L2) acc = std::sqrt(acc), scale = acc;
            break;
        case DML_REDUCE_FUNCTION_MULTIPLY:
            acc = 1;
            for (double v : values) acc *= v;
            scale = std::fabs(acc) * (double)n;
            break;
        case DML_REDUCE_FUNCTION_MAX:
        case DML_REDUCE_FUNCTION_MIN: {
            const bool is_max = fn == DML_REDUCE_FUNCTION_MAX;
            acc = values[0];
            for (double v : values) acc = ordered_extreme(acc, v, is_max);
            scale = 0;  // exact
            break;
        }
        case DML_REDUCE_FUNCTION_LOG_SUM_EXP: {
            double m = -INFINITY;
            bool nan = false;
            for (double v : values) nan |= std::isnan(v), m = std::max(m, v);
            if (nan) {
                acc = NAN;
            } else if (std::isinf(m)) {
                acc = m;
            } else {
                double s = 0;
                for (double v : values) s += std::exp(v - m);
                acc = m + std::log(s);
            }
            scale = std::max(1.0, std::fabs(acc));
            break;
        }
        default: break;
        }
        r.value = acc;
        r.scale = scale;
        return r;
    }

    // Integers: modular arithmetic in 64 bits, truncated to the type's width by the caller.
    uint64_t acc = 0;
    switch (fn) {
    case DML_REDUCE_FUNCTION_SUM:
        for (uint64_t v : raw) acc += v;
        break;
    case DML_REDUCE_FUNCTION_L1:
        for (uint64_t v : raw) acc += (is_signed_int(in.type) && (int64_t)v < 0) ? (uint64_t)0 - v : v;
        break;
    case DML_REDUCE_FUNCTION_SUM_SQUARE:
        for (uint64_t v : raw) acc += v * v;
        break;
    case DML_REDUCE_FUNCTION_MULTIPLY:
        acc = 1;
        for (uint64_t v : raw) acc *= v;
        break;
    case DML_REDUCE_FUNCTION_MAX:
    case DML_REDUCE_FUNCTION_MIN: {
        const bool is_max = fn == DML_REDUCE_FUNCTION_MAX;
        acc = raw[0];
        for (uint64_t v : raw) {
            const bool greater = is_signed_int(in.type) ? (int64_t)v > (int64_t)acc : v > acc;
            if (greater == is_max && v != acc) acc = v;
        }
        break;
    }
    default: break;
    }
    r.bits = bits == 64 ? acc : acc & ((1ull << bits) - 1);
    return r;
}

}  // namespace hdml_test
