// Cumulative sum and product along the innermost and the outermost axis of
// [N/1024, 1024], float32 and float16, 4 MiB and 256 MiB, against Eigen's
// cumsum/cumprod (2-thread ThreadPoolDevice) and the same-run copy bandwidth
// (memcpy, read + write). GB/s count input read + output written.
#include "bench_common.h"

#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

namespace {

void bm_hdml(benchmark::State &state, DML_OPERATOR_TYPE type, bool half, uint32_t axis, uint64_t bytes) {
    const uint32_t esize = half ? 2 : 4, rows = (uint32_t)(bytes / esize / 1024);
    const auto dtype = half ? DML_TENSOR_DATA_TYPE_FLOAT16 : DML_TENSOR_DATA_TYPE_FLOAT32;
    BenchTensor in(dtype, {rows, 1024}), out(dtype, {rows, 1024});
    fill_bench_data(in.storage.data(), (uint64_t)rows * 1024, half);
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC desc{&in.desc, &out.desc, axis, DML_AXIS_DIRECTION_INCREASING, FALSE};
    BenchOperator op(type, &desc);
    if (!op.ok()) return state.SkipWithError(op.error.c_str());
    for (auto _ : state) {
        if (!op.run({in.binding()}, {out.binding()})) return state.SkipWithError(hdmlGetLastErrorMessage());
    }
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)(2 * (uint64_t)rows * 1024 * esize));
}

template <typename T>
void run_eigen(benchmark::State &state, DML_OPERATOR_TYPE type, uint32_t axis, uint32_t rows, T *in, T *out) {
    Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor>> x(in, rows, 1024), y(out, rows, 1024);
    static Eigen::ThreadPool pool(2);
    static Eigen::ThreadPoolDevice device(&pool, 2);
    for (auto _ : state) {
        if (type == DML_OPERATOR_CUMULATIVE_SUMMATION) {
            y.device(device) = x.cumsum((Eigen::Index)axis);
        } else {
            y.device(device) = x.cumprod((Eigen::Index)axis);
        }
    }
}

void bm_eigen(benchmark::State &state, DML_OPERATOR_TYPE type, bool half, uint32_t axis, uint64_t bytes) {
    const uint32_t esize = half ? 2 : 4, rows = (uint32_t)(bytes / esize / 1024);
    std::vector<uint8_t> in((uint64_t)rows * 1024 * esize), out(in.size());
    fill_bench_data(in.data(), (uint64_t)rows * 1024, half);
    if (half) {
        run_eigen(state, type, axis, rows, reinterpret_cast<Eigen::half *>(in.data()),
                  reinterpret_cast<Eigen::half *>(out.data()));
    } else {
        run_eigen(state, type, axis, rows, reinterpret_cast<float *>(in.data()), reinterpret_cast<float *>(out.data()));
    }
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)(2 * (uint64_t)rows * 1024 * esize));
}

void register_all() {
    const std::pair<const char *, uint64_t> sizes[] = {{"4MiB", 4u << 20}, {"256MiB", 256u << 20}};
    for (const auto &size : sizes) {
        register_copy_bandwidth(size.first, size.second);
        for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
            for (bool half : {false, true}) {
                for (uint32_t axis : {1u, 0u}) {
                    const std::string name = std::string(type == DML_OPERATOR_CUMULATIVE_SUMMATION ? "cumsum/" : "cumprod/") +
                                             (half ? "f16/" : "f32/") + (axis == 1 ? "inner/" : "outer/") + size.first +
                                             "/";
                    const uint64_t bytes = size.second;
                    const double min_time = bytes >= (64u << 20) ? 1.0 : 0.2;
                    benchmark::RegisterBenchmark((name + "hdml").c_str(),
                                                 [=](benchmark::State &s) { bm_hdml(s, type, half, axis, bytes); })
                        ->UseRealTime()
                        ->MinTime(min_time);
                    benchmark::RegisterBenchmark((name + "eigen").c_str(),
                                                 [=](benchmark::State &s) { bm_eigen(s, type, half, axis, bytes); })
                        ->UseRealTime()
                        ->MinTime(min_time);
                }
            }
        }
    }
}

const bool registered = (register_all(), true);

}  // namespace
