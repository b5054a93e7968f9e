#include "runtime/halide_glue.h"

#include "runtime/error.h"
#include "runtime/tensor.h"
#include "runtime/thread_pool.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

#if HDML_HAVE_CUDA
#include "HalideRuntimeCuda.h"
#endif
#if HDML_HAVE_D3D12
#include "HalideRuntimeD3D12Compute.h"
#endif

namespace hdml {

namespace {

void record_error(void *user_context, const char *message) {
    // Kernels are always called with a KernelCall as user_context; anything
    // else (a runtime-internal error without context) has nowhere to go but stderr.
    if (user_context) {
        static_cast<KernelCall *>(user_context)->error += message;
    } else {
        std::fprintf(stderr, "hdml: Halide runtime error: %s\n", message);
    }
}

// x86 features a kernel variant may use under each HDML_CPU_ISA setting.
uint64_t g_allowed_features[(halide_target_feature_end + 63) / 64];
const halide_target_feature_t kX86Features[] = {
    halide_target_feature_sse41,         halide_target_feature_avx,           halide_target_feature_avx2,
    halide_target_feature_fma,           halide_target_feature_fma4,          halide_target_feature_f16c,
    halide_target_feature_avx512,        halide_target_feature_avx512_knl,    halide_target_feature_avx512_skylake,
    halide_target_feature_avx512_cannonlake, halide_target_feature_avx512_sapphirerapids,
};

void allow(halide_target_feature_t f) {
    g_allowed_features[f / 64] |= uint64_t(1) << (f % 64);
}

int capped_can_use_target_features(int count, const uint64_t *features) {
    for (int i = 0; i < count && i < (int)(sizeof(g_allowed_features) / sizeof(uint64_t)); ++i) {
        uint64_t x86_bits = 0;
        for (halide_target_feature_t f : kX86Features) {
            if ((int)(f / 64) == i) x86_bits |= uint64_t(1) << (f % 64);
        }
        if (features[i] & x86_bits & ~g_allowed_features[i]) return 0;
    }
    return halide_default_can_use_target_features(count, features);
}

void install_isa_cap() {
    const char *isa = std::getenv("HDML_CPU_ISA");
    if (!isa || !*isa) return;
    if (std::strcmp(isa, "avx2") == 0) {
        for (auto f : {halide_target_feature_sse41, halide_target_feature_avx, halide_target_feature_avx2,
                       halide_target_feature_fma, halide_target_feature_f16c}) {
            allow(f);
        }
    } else if (std::strcmp(isa, "sse41") == 0) {
        allow(halide_target_feature_sse41);
    } else if (std::strcmp(isa, "baseline") != 0) {
        std::fprintf(stderr, "hdml: ignoring HDML_CPU_ISA=%s (expected baseline, sse41 or avx2)\n", isa);
        return;
    }
    halide_set_custom_can_use_target_features(capped_can_use_target_features);
}

}  // namespace

void init_halide_runtime() {
    static std::once_flag once;
    std::call_once(once, [] {
        halide_set_error_handler(record_error);
        install_isa_cap();
        // HDML_THREAD_POOL=halide keeps Halide's own pool (for comparisons).
        const char *pool = std::getenv("HDML_THREAD_POOL");
        if (!pool || std::strcmp(pool, "halide") != 0) halide_set_custom_do_par_for(thread_pool_do_par_for);
#if HDML_HAVE_CUDA
        install_cuda_hooks();
#endif
    });
}

const halide_device_interface_t *device_interface_of(const hdml_device &device) {
#if HDML_HAVE_CUDA
    if (on_cuda(device)) return halide_cuda_device_interface();
#endif
#if HDML_HAVE_D3D12
    if (on_d3d12(device)) return halide_d3d12compute_device_interface();
#endif
    (void)device;
    return nullptr;
}

halide_type_t halide_type_of_dml(DML_TENSOR_DATA_TYPE type) {
    const uint8_t bits = (uint8_t)(element_size(type) * 8);
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_FLOAT32:
    case DML_TENSOR_DATA_TYPE_FLOAT64: return halide_type_t(halide_type_float, bits);
    case DML_TENSOR_DATA_TYPE_INT8:
    case DML_TENSOR_DATA_TYPE_INT16:
    case DML_TENSOR_DATA_TYPE_INT32:
    case DML_TENSOR_DATA_TYPE_INT64: return halide_type_t(halide_type_int, bits);
    default: return halide_type_t(halide_type_uint, bits);
    }
}

HRESULT check_kernel(int halide_result, const KernelCall &call, const char *kernel_name) {
    if (halide_result == 0) return S_OK;
    return fail(E_FAIL, format("Kernel %s failed with Halide error %d: %s", kernel_name, halide_result,
                               call.error.empty() ? "(no message)" : call.error.c_str()));
}

}  // namespace hdml
