// Shared pieces of hdml's benchmarks: tensors, an operator wrapper, input
// data, and the read-bandwidth reference every table row is compared with.
#pragma once

#include "bandwidth.h"

#include <benchmark/benchmark.h>
#include <hdml/hdml.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

struct BenchTensor {
    std::vector<uint32_t> sizes;
    std::vector<uint8_t> storage;
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC desc{};
    BenchTensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> s) : sizes(std::move(s)) {
        const uint64_t bytes = DMLCalcBufferTensorSize(type, (UINT)sizes.size(), sizes.data(), nullptr);
        storage.resize(bytes);
        buffer = {type, DML_TENSOR_FLAG_NONE, (UINT)sizes.size(), sizes.data(), nullptr, bytes, 0};
        desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
    }
    HDML_BUFFER_BINDING binding() { return {storage.data(), 0, storage.size()}; }
};

struct BenchOperator {
    hdml_device *device = nullptr;
    hdml_operator *op = nullptr;
    std::string error;
    BenchOperator(DML_OPERATOR_TYPE type, const void *desc) {
        DML_OPERATOR_DESC d{type, desc};
        if (FAILED(hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &device)) || FAILED(hdmlCreateOperator(device, &d, &op))) {
            error = hdmlGetLastErrorMessage();
        }
    }
    ~BenchOperator() {
        hdmlReleaseOperator(op);
        hdmlReleaseDevice(device);
    }
    bool ok() const { return op != nullptr; }
    bool run(std::vector<HDML_BUFFER_BINDING> in, std::vector<HDML_BUFFER_BINDING> out) {
        return SUCCEEDED(hdmlExecute(op, (uint32_t)in.size(), in.data(), (uint32_t)out.size(), out.data()));
    }
};

// Values in [-1, 1) as float32 or float16 bits (deterministic).
inline void fill_bench_data(void *data, uint64_t n, bool half) {
    uint32_t state = 12345;
    for (uint64_t k = 0; k < n; ++k) {
        state = state * 1664525u + 1013904223u;
        const float v = (float)(state >> 8) / (float)(1u << 23) - 1.0f;
        if (half) {
            // Exactly representable: 10 mantissa bits of a value in [-1, 1).
            const int q = (int)(v * 1024.0f);
            const float h = q / 1024.0f;
            uint32_t bits;
            std::memcpy(&bits, &h, 4);
            const uint16_t sign = (bits >> 16) & 0x8000;
            uint16_t out = sign;
            if (q != 0) {
                const int exponent = (int)((bits >> 23) & 0xFF) - 127 + 15;
                out |= (uint16_t)((exponent << 10) | ((bits >> 13) & 0x3FF));
            }
            static_cast<uint16_t *>(data)[k] = out;
        } else {
            static_cast<float *>(data)[k] = v;
        }
    }
}

// The machine's read bandwidth: two threads (one below 1 MiB, where a thread
// start costs more than the read) summing 64-bit words.
inline void bm_read_bandwidth(benchmark::State &state, uint64_t bytes) {
    std::vector<uint64_t> data(bytes / 8, 1);
    const unsigned threads = bytes >= (1u << 20) ? 2 : 1;
    uint64_t sink = 0;
    for (auto _ : state) sink += read_pass(data, threads);
    benchmark::DoNotOptimize(sink);
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)bytes);
}

inline void register_read_bandwidth(const char *size_name, uint64_t bytes) {
    benchmark::RegisterBenchmark((std::string("bandwidth/read/") + size_name).c_str(),
                                 [=](benchmark::State &s) { bm_read_bandwidth(s, bytes); })
        ->UseRealTime()
        ->MinTime(bytes >= (64u << 20) ? 1.0 : 0.2);
}

// Read+write reference for copy-like operators: two threads memcpy halves;
// bytes = read + written.
inline void bm_copy_bandwidth(benchmark::State &state, uint64_t bytes) {
    std::vector<uint8_t> src(bytes, 1), dst(bytes);
    for (auto _ : state) {
        copy_pass(src, dst, 2);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)(2 * bytes));
}

inline void register_copy_bandwidth(const char *size_name, uint64_t bytes) {
    benchmark::RegisterBenchmark((std::string("bandwidth/copy/") + size_name).c_str(),
                                 [=](benchmark::State &s) { bm_copy_bandwidth(s, bytes); })
        ->UseRealTime()
        ->MinTime(bytes >= (64u << 20) ? 1.0 : 0.2);
}
