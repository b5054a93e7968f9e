// The C API: device creation, the operator table (generated from ops.cmake),
// and execution behind the binding checks of runtime/bindings.h.
#include "hdml/hdml.h"
#include "runtime/bindings.h"
#include "runtime/cuda_device.h"
#include "runtime/error.h"
#include "runtime/halide_glue.h"
#include "runtime/kernels.h"
#include "runtime/operator.h"

#if HDML_HAVE_D3D12
#include "runtime/d3d12/context.h"
#include "runtime/d3d12/execute.h"
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace hdml {

#define HDML_OPERATOR(type, factory) HRESULT factory(const hdml_device &, const void *, std::unique_ptr<hdml_operator> *);
#include "hdml/operators.inc"
#undef HDML_OPERATOR

namespace {

struct OperatorEntry {
    DML_OPERATOR_TYPE type;
    const char *name;
    OperatorFactory factory;
};

#define HDML_OPERATOR(type, factory) {type, #type, factory},
const OperatorEntry kOperators[] = {
#include "hdml/operators.inc"
};
#undef HDML_OPERATOR

const OperatorEntry *find_operator(int32_t type) {
    for (const OperatorEntry &entry : kOperators) {
        if (entry.type == type) return &entry;
    }
    return nullptr;
}

// Whether HDML_64BIT_MOVES asks every device for D3D12's 64-bit moves (tests run them on CPUs and CUDA).
bool word_pairs_requested() {
    static const bool requested = [] {
        const char *value = std::getenv("HDML_64BIT_MOVES");
        if (!value || !*value) return false;
        if (std::strcmp(value, "word_pairs") == 0) return true;
        if (std::strcmp(value, "elements") != 0) {
            std::fprintf(stderr, "hdml: ignoring HDML_64BIT_MOVES=%s (expected word_pairs or elements)\n", value);
        }
        return false;
    }();
    return requested;
}

// A created device takes its 64-bit moves and its platform's dispatch
// thresholds; if they cannot be read, it is released and the error returned.
HRESULT with_thresholds(HRESULT created, hdml_device **device) {
    if (FAILED(created)) return created;
    (*device)->moves_64bit_in_words = on_d3d12(**device) || word_pairs_requested();
    const HRESULT hr = load_thresholds(kernel_platform(**device), &(*device)->thresholds);
    if (FAILED(hr)) {
        hdmlReleaseDevice(*device);
        *device = nullptr;
    }
    return hr;
}

}  // namespace

bool verbose() {
    static const bool on = [] {
        const char *v = std::getenv("HDML_VERBOSE");
        return v && *v && *v != '0';
    }();
    return on;
}

void log_verbose(const std::string &line) {
    if (verbose()) std::fprintf(stderr, "hdml: %s\n", line.c_str());
}

}  // namespace hdml

using namespace hdml;

extern "C" {

HRESULT hdmlCreateDevice(HDML_DEVICE_TYPE device_type, uint32_t ordinal, hdml_device **device) {
    clear_last_error();
    const int32_t type = raw_enum(device_type);
    if (!device) return invalid_arg("hdmlCreateDevice: the device out-pointer is null.");
    *device = nullptr;
    if (type == HDML_DEVICE_TYPE_CUDA) {
#if HDML_HAVE_CUDA
        init_halide_runtime();
        return with_thresholds(create_cuda_device(ordinal, device), device);
#else
        return fail(DXGI_ERROR_UNSUPPORTED, "hdmlCreateDevice: this build of hdml has no CUDA kernels "
                                            "(configure with HDML_PLATFORMS including cuda).");
#endif
    }
    if (type != HDML_DEVICE_TYPE_CPU) {
        if (type != HDML_DEVICE_TYPE_D3D12) {
            return invalid_arg(format("hdmlCreateDevice: %d is not an HDML_DEVICE_TYPE.", type));
        }
#if HDML_HAVE_D3D12
        init_halide_runtime();
        return with_thresholds(d3d12::create_device(ordinal, device), device);
#else
        return fail(DXGI_ERROR_UNSUPPORTED, "hdmlCreateDevice: this build of hdml has no D3D12 device (it is built "
                                            "for Windows, with HDML_PLATFORMS including d3d12).");
#endif
    }
    if (ordinal != 0) {
        return fail(DXGI_ERROR_UNSUPPORTED, format("hdmlCreateDevice: there is one CPU device; ordinal %u does not exist.",
                                                   ordinal));
    }
    init_halide_runtime();
    *device = new (std::nothrow) hdml_device;
    return with_thresholds(*device ? S_OK : fail(E_OUTOFMEMORY, "hdmlCreateDevice: out of memory."), device);
}

HRESULT hdmlCreateDeviceFromCudaContext(struct CUctx_st *context, struct CUstream_st *stream, hdml_device **device) {
    clear_last_error();
    if (!device) return invalid_arg("hdmlCreateDeviceFromCudaContext: the device out-pointer is null.");
    *device = nullptr;
#if HDML_HAVE_CUDA
    init_halide_runtime();
    return with_thresholds(create_cuda_device_from_context(context, stream, device), device);
#else
    (void)context, (void)stream;
    return fail(DXGI_ERROR_UNSUPPORTED, "hdmlCreateDeviceFromCudaContext: this build of hdml has no CUDA kernels "
                                        "(configure with HDML_PLATFORMS including cuda).");
#endif
}

HRESULT hdmlCreateDeviceFromD3D12(struct ID3D12Device *d3d12_device, struct ID3D12CommandQueue *queue,
                                  hdml_device **device) {
    clear_last_error();
    if (!device) return invalid_arg("hdmlCreateDeviceFromD3D12: the device out-pointer is null.");
    *device = nullptr;
#if HDML_HAVE_D3D12
    init_halide_runtime();
    return with_thresholds(d3d12::create_device_from(d3d12_device, queue, device), device);
#else
    (void)d3d12_device, (void)queue;
    return fail(DXGI_ERROR_UNSUPPORTED, "hdmlCreateDeviceFromD3D12: this build of hdml has no D3D12 device (it is "
                                        "built for Windows, with HDML_PLATFORMS including d3d12).");
#endif
}

HRESULT hdmlCreateOperator(hdml_device *device, const DML_OPERATOR_DESC *desc, hdml_operator **op) {
    clear_last_error();
    if (!op) return invalid_arg("hdmlCreateOperator: the operator out-pointer is null.");
    *op = nullptr;
    if (!device) return invalid_arg("hdmlCreateOperator: the device is null.");
    if (!desc) return invalid_arg("hdmlCreateOperator: the DML_OPERATOR_DESC is null.");
    const OperatorEntry *entry = find_operator(raw_enum(desc->Type));
    if (!entry) {
        return invalid_arg(format("hdmlCreateOperator: DML_OPERATOR_DESC::Type %d is not an operator hdml implements.",
                                  raw_enum(desc->Type)));
    }
    if (!desc->Desc) return invalid_arg(format("hdmlCreateOperator: %s has a null Desc.", entry->name));
    std::unique_ptr<hdml_operator> created;
    try {
        HDML_RETURN_IF_FAILED(entry->factory(*device, desc->Desc, &created));
    } catch (const std::bad_alloc &) {
        return fail(E_OUTOFMEMORY, format("hdmlCreateOperator: out of memory creating %s.", entry->name));
    }
    *op = created.release();
    return S_OK;
}

HRESULT hdmlExecute(hdml_operator *op, uint32_t inputCount, const HDML_BUFFER_BINDING *inputs, uint32_t outputCount,
                    const HDML_BUFFER_BINDING *outputs) {
    clear_last_error();
    if (!op) return invalid_arg("hdmlExecute: the operator is null.");
    try {
        std::vector<void *> in, out;
#if HDML_HAVE_D3D12
        if (on_d3d12(op->device)) return d3d12::execute(*op, inputCount, inputs, outputCount, outputs);
#endif
        HDML_RETURN_IF_FAILED(check_bindings(*op, inputCount, inputs, outputCount, outputs, &in, &out));
        return op->run(in.data(), out.data());
    } catch (const std::bad_alloc &) {
        return fail(E_OUTOFMEMORY, "hdmlExecute: out of memory.");
    }
}

void hdmlReleaseOperator(hdml_operator *op) {
    delete op;
}

void hdmlReleaseDevice(hdml_device *device) {
    if (device && on_cuda(*device)) release_cuda_device(device);
#if HDML_HAVE_D3D12
    if (device && on_d3d12(*device)) d3d12::release_device(device);
#endif
    delete device;
}

const char *hdmlGetOperatorKernels(const hdml_operator *op) {
    return op ? op->kernel_names.c_str() : nullptr;
}

const char *hdmlGetLastErrorMessage(void) {
    return last_error();
}

}  // extern "C"
