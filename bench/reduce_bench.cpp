// REDUCE benchmarks: SUM, MAX and LOG_SUM_EXP in fp32 and fp16, reducing the
// innermost (rows of 1024, 64 and 16), outermost, a middle and all axes, at
// 4 KiB, 4 MiB and 256 MiB,
// for hdml, oneDNN's reduction primitive and Eigen's Tensor reductions, plus
// the machine's read bandwidth measured in the same run.
//
// Every benchmark reports bytes_per_second over the bytes it must read (and
// write): bench/report.py turns the JSON into bench/README.md's table.
#include "bench_common.h"

#if HDML_BENCH_ONEDNN
#include <dnnl.hpp>
#endif
#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

#include <map>

namespace {

// rows16 / rows64: the innermost axis of many short rows (a softmax-style reduction).
enum Layout { kInner, kOuter, kMiddle, kAll, kRows16, kRows64 };
const char *kLayoutNames[] = {"inner", "outer", "middle", "all", "rows16", "rows64"};
enum Function { kSum, kMax, kLogSumExp };
const char *kFunctionNames[] = {"sum", "max", "log_sum_exp"};

// Shape (outermost first) and reduced axes for a layout and element count.
struct Problem {
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> axes;
    uint64_t elements() const {
        uint64_t n = 1;
        for (uint32_t s : sizes) n *= s;
        return n;
    }
    uint64_t outputs() const {
        uint64_t n = 1;
        for (size_t d = 0; d < sizes.size(); ++d) {
            if (std::find(axes.begin(), axes.end(), (uint32_t)d) == axes.end()) n *= sizes[d];
        }
        return n;
    }
};

Problem make_problem(Layout layout, uint64_t n) {
    const uint32_t row = 1024;
    switch (layout) {
    case kInner: return {{(uint32_t)(n / row), row}, {1}};
    case kOuter: return {{(uint32_t)(n / row), row}, {0}};
    case kMiddle: return {{16, (uint32_t)(n / (16 * 64)), 64}, {1}};
    case kRows16: return {{(uint32_t)(n / 16), 16}, {1}};
    case kRows64: return {{(uint32_t)(n / 64), 64}, {1}};
    default: return {{(uint32_t)n}, {0}};
    }
}

// hdml --------------------------------------------------------------------------
void bm_hdml(benchmark::State &state, Layout layout, Function fn, bool half, uint64_t bytes) {
    const uint32_t esize = half ? 2 : 4;
    const Problem p = make_problem(layout, bytes / esize);
    const auto type = half ? DML_TENSOR_DATA_TYPE_FLOAT16 : DML_TENSOR_DATA_TYPE_FLOAT32;
    std::vector<uint32_t> out_sizes = p.sizes;
    for (uint32_t a : p.axes) out_sizes[a] = 1;
    BenchTensor in(type, p.sizes), out(type, out_sizes);
    fill_bench_data(in.storage.data(), p.elements(), half);
    const DML_REDUCE_FUNCTION functions[] = {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_MAX,
                                             DML_REDUCE_FUNCTION_LOG_SUM_EXP};
    DML_REDUCE_OPERATOR_DESC desc{functions[fn], &in.desc, &out.desc, (UINT)p.axes.size(), p.axes.data()};
    BenchOperator op(DML_OPERATOR_REDUCE, &desc);
    if (!op.ok()) return state.SkipWithError(op.error.c_str());
    for (auto _ : state) {
        if (!op.run({in.binding()}, {out.binding()})) return state.SkipWithError(hdmlGetLastErrorMessage());
    }
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)((p.elements() + p.outputs()) * esize));
}

// oneDNN ------------------------------------------------------------------------
void bm_onednn(benchmark::State &state, Layout layout, Function fn, bool half, uint64_t bytes) {
    if (fn == kLogSumExp) return state.SkipWithError("oneDNN 2.6 has no log-sum-exp reduction");
#if !HDML_BENCH_ONEDNN
    (void)layout, (void)half, (void)bytes;
    return state.SkipWithError("oneDNN peer not built (no libdnnl-dev for this platform)");
#else
    const uint32_t esize = half ? 2 : 4;
    const Problem p = make_problem(layout, bytes / esize);
    using namespace dnnl;
    static engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    memory::dims src_dims(p.sizes.begin(), p.sizes.end()), dst_dims = src_dims;
    for (uint32_t a : p.axes) dst_dims[a] = 1;
    const auto dt = half ? memory::data_type::f16 : memory::data_type::f32;
    const auto tag = p.sizes.size() == 1 ? memory::format_tag::a
                     : p.sizes.size() == 2 ? memory::format_tag::ab
                                           : memory::format_tag::abc;
    memory::desc src_md(src_dims, dt, tag), dst_md(dst_dims, dt, tag);
    try {
        const auto alg = fn == kSum ? algorithm::reduction_sum : algorithm::reduction_max;
        reduction::primitive_desc pd(reduction::desc(alg, src_md, dst_md, 0.f, 0.f), eng);
        memory src(src_md, eng), dst(dst_md, eng);
        fill_bench_data(src.get_data_handle(), p.elements(), half);
        reduction prim(pd);
        state.SetLabel(pd.impl_info_str());
        for (auto _ : state) {
            prim.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
            strm.wait();
        }
    } catch (const dnnl::error &e) {
        return state.SkipWithError((std::string("oneDNN: ") + e.what()).c_str());
    }
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)((p.elements() + p.outputs()) * esize));
#endif
}

// Eigen -------------------------------------------------------------------------
template <typename T, int Rank>
void run_eigen(benchmark::State &state, const Problem &p, Function fn, T *data, T *result) {
    Eigen::array<Eigen::Index, Rank> dims;
    for (int d = 0; d < Rank; ++d) dims[d] = p.sizes[d];
    Eigen::TensorMap<Eigen::Tensor<T, Rank, Eigen::RowMajor>> x(data, dims);
    Eigen::array<Eigen::Index, 1> axis{(Eigen::Index)p.axes[0]};
    Eigen::TensorMap<Eigen::Tensor<T, Rank - 1, Eigen::RowMajor>> y(result, [&] {
        Eigen::array<Eigen::Index, Rank - 1> out;
        for (int d = 0, k = 0; d < Rank; ++d) {
            if (d != (int)p.axes[0]) out[k++] = p.sizes[d];
        }
        return out;
    }());
    static Eigen::ThreadPool pool(2);
    static Eigen::ThreadPoolDevice device(&pool, 2);
    for (auto _ : state) {
        if (fn == kSum) {
            y.device(device) = x.sum(axis);
        } else if (fn == kMax) {
            y.device(device) = x.maximum(axis);
        } else {
            // Max-shifted log-sum-exp, as hdml computes it.
            Eigen::array<Eigen::Index, Rank> keep;
            Eigen::array<Eigen::Index, Rank> bcast;
            for (int d = 0; d < Rank; ++d) keep[d] = d == (int)p.axes[0] ? 1 : p.sizes[d], bcast[d] = 1;
            bcast[p.axes[0]] = p.sizes[p.axes[0]];
            y.device(device) = x.maximum(axis);
            y.device(device) = y + (x - y.reshape(keep).broadcast(bcast)).exp().sum(axis).log();
        }
    }
}

void bm_eigen(benchmark::State &state, Layout layout, Function fn, bool half, uint64_t bytes) {
    const uint32_t esize = half ? 2 : 4;
    Problem p = make_problem(layout, bytes / esize);
    if (layout == kAll) p = {{1, p.sizes[0]}, {1}};  // Eigen: a full reduction as one row
    std::vector<uint8_t> in(p.elements() * esize), out(p.outputs() * esize + 64);
    fill_bench_data(in.data(), p.elements(), half);
    if (half) {
        auto *x = reinterpret_cast<Eigen::half *>(in.data());
        auto *y = reinterpret_cast<Eigen::half *>(out.data());
        p.sizes.size() == 2 ? run_eigen<Eigen::half, 2>(state, p, fn, x, y) : run_eigen<Eigen::half, 3>(state, p, fn, x, y);
    } else {
        auto *x = reinterpret_cast<float *>(in.data());
        auto *y = reinterpret_cast<float *>(out.data());
        p.sizes.size() == 2 ? run_eigen<float, 2>(state, p, fn, x, y) : run_eigen<float, 3>(state, p, fn, x, y);
    }
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)((p.elements() + p.outputs()) * esize));
}

void register_all() {
    const std::pair<const char *, uint64_t> sizes[] = {{"4KiB", 4096}, {"4MiB", 4u << 20}, {"256MiB", 256u << 20}};
    for (const auto &size : sizes) {
        register_read_bandwidth(size.first, size.second);
        for (int fn = kSum; fn <= kLogSumExp; ++fn) {
            for (bool half : {false, true}) {
                for (int layout = kInner; layout <= kRows64; ++layout) {
                    const std::string name = std::string("reduce/") + kFunctionNames[fn] + "/" + (half ? "f16" : "f32") +
                                             "/" + kLayoutNames[layout] + "/" + size.first + "/";
                    const auto l = (Layout)layout;
                    const auto f = (Function)fn;
                    const uint64_t bytes = size.second;
                    for (auto peer : {std::make_pair("hdml", &bm_hdml), std::make_pair("onednn", &bm_onednn),
                                      std::make_pair("eigen", &bm_eigen)}) {
                        auto *fnptr = peer.second;
                        benchmark::RegisterBenchmark((name + peer.first).c_str(),
                                                     [=](benchmark::State &s) { fnptr(s, l, f, half, bytes); })
                            ->UseRealTime()
                            ->MinTime(bytes >= (64u << 20) ? 1.0 : 0.2);
                    }
                }
            }
        }
    }
}

const bool registered = (register_all(), true);

}  // namespace
