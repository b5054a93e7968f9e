// Cumulative sum and product along the innermost and the outermost axis of
// [N/1024, 1024], and the innermost axis of many short lines ([N/16, 16],
// [N/64, 64]), float32 and float16, 4 MiB and 256 MiB, against Eigen's
// cumsum/cumprod (2-thread ThreadPoolDevice) and the same-run copy bandwidth
// (memcpy, read + write). GB/s count input read + output written.
#include "bench_common.h"

#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

namespace {

// [rows, line] scanned along `axis`.
struct Layout {
    const char *name;
    uint32_t axis, line;
};
const Layout kLayouts[] = {{"inner", 1, 1024}, {"outer", 0, 1024}, {"lines16", 1, 16}, {"lines64", 1, 64}};

void bm_hdml(benchmark::State &state, DML_OPERATOR_TYPE type, bool half, Layout layout, uint64_t bytes) {
    const uint32_t esize = half ? 2 : 4, line = layout.line, axis = layout.axis,
                   rows = (uint32_t)(bytes / esize / line);
    const auto dtype = half ? DML_TENSOR_DATA_TYPE_FLOAT16 : DML_TENSOR_DATA_TYPE_FLOAT32;
    BenchTensor in(dtype, {rows, line}), out(dtype, {rows, line});
    fill_bench_data(in.storage.data(), (uint64_t)rows * line, half);
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC desc{&in.desc, &out.desc, axis, DML_AXIS_DIRECTION_INCREASING, FALSE};
    BenchOperator op(type, &desc);
    if (!op.ok()) return state.SkipWithError(op.error.c_str());
    for (auto _ : state) {
        if (!op.run({in.binding()}, {out.binding()})) return state.SkipWithError(hdmlGetLastErrorMessage());
    }
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)(2 * (uint64_t)rows * line * esize));
}

template <typename T>
void run_eigen(benchmark::State &state, DML_OPERATOR_TYPE type, uint32_t axis, uint32_t rows, uint32_t line, T *in,
               T *out) {
    Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor>> x(in, rows, line), y(out, rows, line);
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

void bm_eigen(benchmark::State &state, DML_OPERATOR_TYPE type, bool half, Layout layout, uint64_t bytes) {
    const uint32_t esize = half ? 2 : 4, line = layout.line, axis = layout.axis,
                   rows = (uint32_t)(bytes / esize / line);
    std::vector<uint8_t> in((uint64_t)rows * line * esize), out(in.size());
    fill_bench_data(in.data(), (uint64_t)rows * line, half);
    if (half) {
        run_eigen(state, type, axis, rows, line, reinterpret_cast<Eigen::half *>(in.data()),
                  reinterpret_cast<Eigen::half *>(out.data()));
    } else {
        run_eigen(state, type, axis, rows, line, reinterpret_cast<float *>(in.data()),
                  reinterpret_cast<float *>(out.data()));
    }
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)(2 * (uint64_t)rows * line * esize));
}

void register_all() {
    const std::pair<const char *, uint64_t> sizes[] = {{"4MiB", 4u << 20}, {"256MiB", 256u << 20}};
    for (const auto &size : sizes) {
        register_copy_bandwidth(size.first, size.second);
        for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
            for (bool half : {false, true}) {
                for (const Layout &layout : kLayouts) {
                    const std::string name = std::string(type == DML_OPERATOR_CUMULATIVE_SUMMATION ? "cumsum/" : "cumprod/") +
                                             (half ? "f16/" : "f32/") + layout.name + "/" + size.first + "/";
                    const uint64_t bytes = size.second;
                    const double min_time = bytes >= (64u << 20) ? 1.0 : 0.2;
                    benchmark::RegisterBenchmark((name + "hdml").c_str(),
                                                 [=](benchmark::State &s) { bm_hdml(s, type, half, layout, bytes); })
                        ->UseRealTime()
                        ->MinTime(min_time);
                    benchmark::RegisterBenchmark((name + "eigen").c_str(),
                                                 [=](benchmark::State &s) { bm_eigen(s, type, half, layout, bytes); })
                        ->UseRealTime()
                        ->MinTime(min_time);
                }
            }
        }
    }
}

const bool registered = (register_all(), true);

}  // namespace
