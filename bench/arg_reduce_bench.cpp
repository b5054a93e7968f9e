// ARGMAX/ARGMIN benchmarks: fp32 and fp16, reducing the innermost and the
// outermost axis of [N/1024, 1024], 4 MiB and 256 MiB; Eigen's Tensor argmax
// (2-thread ThreadPoolDevice) on the same shapes, and the read bandwidth.
#include "bench_common.h"

#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

namespace {

void bm_hdml(benchmark::State &state, DML_OPERATOR_TYPE type, bool half, uint32_t axis, uint64_t bytes) {
    const uint32_t esize = half ? 2 : 4;
    const uint32_t rows = (uint32_t)(bytes / esize / 1024);
    std::vector<uint32_t> sizes = {rows, 1024}, out_sizes = sizes;
    out_sizes[axis] = 1;
    BenchTensor in(half ? DML_TENSOR_DATA_TYPE_FLOAT16 : DML_TENSOR_DATA_TYPE_FLOAT32, sizes),
        out(DML_TENSOR_DATA_TYPE_UINT32, out_sizes);
    fill_bench_data(in.storage.data(), (uint64_t)rows * 1024, half);
    DML_ARGMAX_OPERATOR_DESC desc{&in.desc, &out.desc, 1, &axis, DML_AXIS_DIRECTION_INCREASING};
    BenchOperator op(type, &desc);
    if (!op.ok()) return state.SkipWithError(op.error.c_str());
    for (auto _ : state) {
        if (!op.run({in.binding()}, {out.binding()})) return state.SkipWithError(hdmlGetLastErrorMessage());
    }
    const uint64_t outputs = axis == 1 ? rows : 1024;
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)((uint64_t)rows * 1024 * esize + outputs * 4));
}

template <typename T>
void run_eigen(benchmark::State &state, DML_OPERATOR_TYPE type, uint32_t axis, uint32_t rows, T *data) {
    Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor>> x(data, rows, 1024);
    Eigen::Tensor<Eigen::Index, 1, Eigen::RowMajor> y(axis == 1 ? rows : 1024);
    static Eigen::ThreadPool pool(2);
    static Eigen::ThreadPoolDevice device(&pool, 2);
    for (auto _ : state) {
        if (type == DML_OPERATOR_ARGMAX) {
            y.device(device) = x.argmax((int)axis);
        } else {
            y.device(device) = x.argmin((int)axis);
        }
    }
}

void bm_eigen(benchmark::State &state, DML_OPERATOR_TYPE type, bool half, uint32_t axis, uint64_t bytes) {
    const uint32_t esize = half ? 2 : 4;
    const uint32_t rows = (uint32_t)(bytes / esize / 1024);
    std::vector<uint8_t> in((uint64_t)rows * 1024 * esize);
    fill_bench_data(in.data(), (uint64_t)rows * 1024, half);
    if (half) {
        run_eigen(state, type, axis, rows, reinterpret_cast<Eigen::half *>(in.data()));
    } else {
        run_eigen(state, type, axis, rows, reinterpret_cast<float *>(in.data()));
    }
    const uint64_t outputs = axis == 1 ? rows : 1024;
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)((uint64_t)rows * 1024 * esize + outputs * 4));
}

void register_all() {
    const std::pair<const char *, uint64_t> sizes[] = {{"4MiB", 4u << 20}, {"256MiB", 256u << 20}};
    for (const auto &size : sizes) {
        register_read_bandwidth(size.first, size.second);
        for (DML_OPERATOR_TYPE type : {DML_OPERATOR_ARGMAX, DML_OPERATOR_ARGMIN}) {
            for (bool half : {false, true}) {
                for (uint32_t axis : {1u, 0u}) {
                    const std::string name = std::string(type == DML_OPERATOR_ARGMAX ? "argmax/" : "argmin/") +
                                             (half ? "f16/" : "f32/") + (axis == 1 ? "inner/" : "outer/") +
                                             size.first + "/";
                    const uint64_t bytes = size.second;
                    benchmark::RegisterBenchmark((name + "hdml").c_str(),
                                                 [=](benchmark::State &s) { bm_hdml(s, type, half, axis, bytes); })
                        ->UseRealTime()
                        ->MinTime(bytes >= (64u << 20) ? 1.0 : 0.2);
                    benchmark::RegisterBenchmark((name + "eigen").c_str(),
                                                 [=](benchmark::State &s) { bm_eigen(s, type, half, axis, bytes); })
                        ->UseRealTime()
                        ->MinTime(bytes >= (64u << 20) ? 1.0 : 0.2);
                }
            }
        }
    }
}

const bool registered = (register_all(), true);

}  // namespace
