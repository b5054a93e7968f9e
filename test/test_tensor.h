// Test-side tensors: a DML buffer tensor desc with its own storage, element
// access by N-D index as double (floats) or 64-bit integer bits, and random
// shapes/strides. Independent of the library's own code.
#pragma once

#include "test_device.h"
#include "tools/cuda_host.h"
#include "tools/d3d12_host.h"
#include "half.h"
#include "hdml/hdml.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace hdml_test {

inline uint32_t bytes_of(DML_TENSOR_DATA_TYPE t) {
    switch (t) {
    case DML_TENSOR_DATA_TYPE_INT8:
    case DML_TENSOR_DATA_TYPE_UINT8: return 1;
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_INT16:
    case DML_TENSOR_DATA_TYPE_UINT16: return 2;
    case DML_TENSOR_DATA_TYPE_FLOAT32:
    case DML_TENSOR_DATA_TYPE_INT32:
    case DML_TENSOR_DATA_TYPE_UINT32: return 4;
    default: return 8;
    }
}
inline bool is_float(DML_TENSOR_DATA_TYPE t) {
    return t == DML_TENSOR_DATA_TYPE_FLOAT16 || t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT64;
}
inline bool is_signed_int(DML_TENSOR_DATA_TYPE t) {
    return t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_INT16 || t == DML_TENSOR_DATA_TYPE_INT32 ||
           t == DML_TENSOR_DATA_TYPE_INT64;
}
inline const char *short_name(DML_TENSOR_DATA_TYPE t) {
    switch (t) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: return "FLOAT32";
    case DML_TENSOR_DATA_TYPE_FLOAT16: return "FLOAT16";
    case DML_TENSOR_DATA_TYPE_FLOAT64: return "FLOAT64";
    case DML_TENSOR_DATA_TYPE_INT8: return "INT8";
    case DML_TENSOR_DATA_TYPE_INT16: return "INT16";
    case DML_TENSOR_DATA_TYPE_INT32: return "INT32";
    case DML_TENSOR_DATA_TYPE_INT64: return "INT64";
    case DML_TENSOR_DATA_TYPE_UINT8: return "UINT8";
    case DML_TENSOR_DATA_TYPE_UINT16: return "UINT16";
    case DML_TENSOR_DATA_TYPE_UINT32: return "UINT32";
    case DML_TENSOR_DATA_TYPE_UINT64: return "UINT64";
    default: return "?";
    }
}

struct TestTensor {
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32;
    std::vector<uint32_t> sizes, strides;
    std::vector<uint8_t> storage;  // TotalTensorSizeInBytes bytes
    DML_BUFFER_TENSOR_DESC buffer_desc{};
    DML_TENSOR_DESC desc{};

    TestTensor() = default;
    TestTensor(DML_TENSOR_DATA_TYPE t, std::vector<uint32_t> s, std::vector<uint32_t> st = {})
        : type(t), sizes(std::move(s)), strides(std::move(st)) {
        if (strides.empty()) {
            strides.resize(sizes.size());
            uint64_t stride = 1;
            for (size_t d = sizes.size(); d-- > 0;) {
                strides[d] = (uint32_t)stride;
                stride *= sizes[d];
            }
        }
        uint64_t last = 0;
        for (size_t d = 0; d < sizes.size(); ++d) last += (uint64_t)(sizes[d] - 1) * strides[d];
        storage.assign(((last + 1) * bytes_of(type) + 3) & ~3ull, 0xA5);  // sentinel fill
        refresh();
    }
    // Copies and moves re-point the desc at their own sizes and strides.
    TestTensor(const TestTensor &other) { *this = other; }
    TestTensor(TestTensor &&other) noexcept { *this = std::move(other); }
    TestTensor &operator=(const TestTensor &other) {
        type = other.type;
        sizes = other.sizes;
        strides = other.strides;
        storage = other.storage;
        refresh();
        return *this;
    }
    TestTensor &operator=(TestTensor &&other) noexcept {
        type = other.type;
        sizes = std::move(other.sizes);
        strides = std::move(other.strides);
        storage = std::move(other.storage);
        refresh();
        other.refresh();
        return *this;
    }
    void refresh() {
        buffer_desc.DataType = type;
        buffer_desc.Flags = DML_TENSOR_FLAG_NONE;
        buffer_desc.DimensionCount = (UINT)sizes.size();
        buffer_desc.Sizes = sizes.data();
        buffer_desc.Strides = strides.data();
        buffer_desc.TotalTensorSizeInBytes = storage.size();
        buffer_desc.GuaranteedBaseOffsetAlignment = 0;
        desc.Type = DML_TENSOR_TYPE_BUFFER;
        desc.Desc = &buffer_desc;
    }
    uint64_t count() const {
        uint64_t n = 1;
        for (uint32_t s : sizes) n *= s;
        return n;
    }
    uint64_t offset(const std::vector<uint32_t> &index) const {
        uint64_t off = 0;
        for (size_t d = 0; d < sizes.size(); ++d) off += (uint64_t)index[d] * strides[d];
        return off;
    }
    // Raw bits of an element, sign-extended for signed types.
    uint64_t bits_at(uint64_t off) const {
        uint64_t v = 0;
        std::memcpy(&v, &storage[off * bytes_of(type)], bytes_of(type));
        const uint32_t b = bytes_of(type) * 8;
        if (is_signed_int(type) && b < 64 && ((v >> (b - 1)) & 1)) v |= ~0ull << b;
        return v;
    }
    void set_bits(uint64_t off, uint64_t v) { std::memcpy(&storage[off * bytes_of(type)], &v, bytes_of(type)); }
    double float_at(uint64_t off) const {
        const uint64_t b = bits_at(off);
        if (type == DML_TENSOR_DATA_TYPE_FLOAT16) return half_to_float((uint16_t)b);
        if (type == DML_TENSOR_DATA_TYPE_FLOAT32) {
            float f;
            uint32_t u = (uint32_t)b;
            std::memcpy(&f, &u, 4);
            return f;
        }
        double d;
        std::memcpy(&d, &b, 8);
        return d;
    }
    void set_float(uint64_t off, double v) {
        if (type == DML_TENSOR_DATA_TYPE_FLOAT16) {
            set_bits(off, float_to_half((float)v));
        } else if (type == DML_TENSOR_DATA_TYPE_FLOAT32) {
            float f = (float)v;
            uint32_t u;
            std::memcpy(&u, &f, 4);
            set_bits(off, u);
        } else {
            uint64_t u;
            std::memcpy(&u, &v, 8);
            set_bits(off, u);
        }
    }
    // Calls fn(index) for every N-D index in row-major order.
    template <typename Fn>
    void for_each_index(Fn fn) const {
        std::vector<uint32_t> index(sizes.size(), 0);
        while (true) {
            fn(index);
            size_t d = sizes.size();
            while (d-- > 0) {
                if (++index[d] < sizes[d]) break;
                index[d] = 0;
            }
            if (d == (size_t)-1) return;
        }
    }
    HDML_BUFFER_BINDING binding() { return HDML_BUFFER_BINDING{storage.data(), 0, storage.size()}; }
};

// Random element values for large tensors: splitmix64, one 64-bit word per
// element (std::mt19937 and its distributions, a call or two per element,
// took a sixth of the suites' time, more under qemu). Seeded from the case's
// generator, so a test seed still reproduces every value.
class ElementRandom {
public:
    explicit ElementRandom(std::mt19937 &rng) : state_((uint64_t)rng() << 32) { state_ |= rng(); }  // in this order
    uint64_t bits() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [lo, hi).
    double uniform(double lo, double hi) { return lo + (hi - lo) * (double)(bits() >> 11) * 0x1p-53; }
    // Uniform over the integers lo..hi.
    int integer(int lo, int hi) { return lo + (int)(bits() % (uint64_t)(hi - lo + 1)); }

private:
    uint64_t state_;
};

// Every element of `t` random bits, one ElementRandom word each.
inline void fill_random_bits(TestTensor &t, std::mt19937 &rng) {
    ElementRandom random(rng);
    t.for_each_index([&](const std::vector<uint32_t> &i) { t.set_bits(t.offset(i), random.bits()); });
}

// Strides for `sizes`: a random memory order of the dims, random row padding,
// and (if allow_broadcast) some dims broadcast with stride 0.
inline std::vector<uint32_t> random_strides(const std::vector<uint32_t> &sizes, std::mt19937 &rng,
                                            bool allow_broadcast) {
    const size_t rank = sizes.size();
    std::vector<uint32_t> strides(rank);
    std::vector<size_t> order(rank);
    for (size_t d = 0; d < rank; ++d) order[d] = d;
    const int style = rng() % 4;  // 0 packed, 1 padded, 2 permuted, 3 permuted + padded
    if (style >= 2) std::shuffle(order.begin(), order.end(), rng);
    uint64_t stride = 1;
    for (size_t k = rank; k-- > 0;) {  // order[rank-1] is innermost in memory
        strides[order[k]] = (uint32_t)stride;
        stride *= sizes[order[k]];
        if (style % 2 == 1 && rng() % 2) stride += rng() % 3;
    }
    if (allow_broadcast) {
        for (size_t d = 0; d < rank; ++d) {
            if (rng() % 5 == 0) strides[d] = 0;
        }
    }
    return strides;
}

inline std::string shape_string(const std::vector<uint32_t> &v) {
    std::string s = "{";
    for (size_t k = 0; k < v.size(); ++k) s += (k ? "," : "") + std::to_string(v[k]);
    return s + "}";
}

// The seed of this test process's random cases: HDML_TEST_SEED if set, else
// random; printed once so a failure can be reproduced.
inline uint32_t test_seed() {
    static const uint32_t seed = [] {
        const char *env = std::getenv("HDML_TEST_SEED");
        const uint32_t s = env ? (uint32_t)std::strtoul(env, nullptr, 10) : std::random_device{}();
        std::printf("random seed %u (set HDML_TEST_SEED to reproduce)\n", s);
        return s;
    }();
    return seed;
}

// Whether the suite's device computes on `type` (not only moves it): D3D12
// has no 64-bit arithmetic, so REDUCE, ARGMAX/ARGMIN and the cumulative ops of
// 64-bit types must fail to create there with DXGI_ERROR_UNSUPPORTED, which
// the suites check in place of a run.
inline bool computes_on_test_device(DML_TENSOR_DATA_TYPE type) {
    return !(test_on_d3d12() && bytes_of(type) == 8);
}

// A device + operator pair that releases itself. Under HDML_TEST_DEVICE=cuda
// (or d3d12) the device is a CUDA (D3D12) one and execute() runs on mirrored
// device memory.
struct Runner {
    hdml_device *device = nullptr;
    hdml_operator *op = nullptr;
    Runner() {
        if (hdml_cuda::CudaHost *cuda = test_on_cuda() ? hdml_cuda::CudaHost::get() : nullptr) {
            hdmlCreateDeviceFromCudaContext(cuda->context(), cuda->stream(), &device);
#ifdef _WIN32
        } else if (hdml_d3d12::D3d12Host *d3d12 = test_on_d3d12() ? hdml_d3d12::D3d12Host::get() : nullptr) {
            hdmlCreateDeviceFromD3D12(d3d12->device(), d3d12->queue(), &device);
#endif
        } else {
            hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &device);
        }
    }
    ~Runner() {
        hdmlReleaseOperator(op);
        hdmlReleaseDevice(device);
    }
    HRESULT create(DML_OPERATOR_TYPE type, const void *desc) {
        hdmlReleaseOperator(op);
        op = nullptr;
        DML_OPERATOR_DESC d{type, desc};
        return hdmlCreateOperator(device, &d, &op);
    }
    HRESULT execute(std::vector<HDML_BUFFER_BINDING> in, std::vector<HDML_BUFFER_BINDING> out) {
#ifdef _WIN32
        if (test_on_d3d12()) return execute_mirrored(*hdml_d3d12::D3d12Host::get(), in, out);
#endif
        if (test_on_cuda()) return execute_mirrored(*hdml_cuda::CudaHost::get(), in, out);
        return hdmlExecute(op, (uint32_t)in.size(), in.data(), (uint32_t)out.size(), out.data());
    }

private:
    static void *as_binding(hdml_cuda::CudaHost::CUdeviceptr pointer) {
        return reinterpret_cast<void *>((uintptr_t)pointer);
    }
    template <typename Buffer>
    static void *as_binding(Buffer *buffer) {
        return buffer;
    }

    // On a GPU host (CudaHost, D3d12Host): one device copy per distinct host
    // buffer (in-place bindings share it), covering everything any binding
    // reaches, so padding is checked too.
    template <typename Host>
    HRESULT execute_mirrored(Host &host, const std::vector<HDML_BUFFER_BINDING> &in,
                             const std::vector<HDML_BUFFER_BINDING> &out) {
        std::map<void *, uint64_t> extent;
        for (auto *list : {&in, &out}) {
            for (const HDML_BUFFER_BINDING &b : *list) {
                if (b.Buffer) extent[b.Buffer] = std::max(extent[b.Buffer], b.Offset + b.SizeInBytes);
            }
        }
        std::map<void *, decltype(host.upload(nullptr, 0))> mirror;
        for (const auto &e : extent) mirror[e.first] = host.upload(e.first, e.second);
        auto to_device = [&](std::vector<HDML_BUFFER_BINDING> list) {
            for (HDML_BUFFER_BINDING &b : list) {
                if (b.Buffer) b.Buffer = as_binding(mirror[b.Buffer]);
            }
            return list;
        };
        std::vector<HDML_BUFFER_BINDING> din = to_device(in), dout = to_device(out);
        const HRESULT hr = hdmlExecute(op, (uint32_t)din.size(), din.data(), (uint32_t)dout.size(), dout.data());
        host.synchronize();
        for (const HDML_BUFFER_BINDING &b : out) {
            if (b.Buffer && SUCCEEDED(hr)) host.download(b.Buffer, mirror[b.Buffer], extent[b.Buffer]);
        }
        for (const auto &m : mirror) host.release(m.second);
        return hr;
    }
};

}  // namespace hdml_test
