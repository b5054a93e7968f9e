// hdml's implementation of the functions Halide 14's d3d12compute kernels call
// (HalideRuntimeD3D12Compute.h), in place of Halide's own runtime module: that
// one keeps a single device and queue of its own, where hdml records on the
// device's queue through the execution's command list (recording.h).
//
// A kernel's buffers hold GPU virtual addresses in halide_buffer_t::device;
// each becomes a typed UAV of the resource range that holds its address.
#include "HalideRuntimeD3D12Compute.h"
#include "runtime/d3d12/recording.h"
#include "runtime/error.h"
#include "runtime/halide_glue.h"

#include <cstring>
#include <mutex>
#include <string>

// Not in Halide 14's public headers: the backend half of a device interface
// (its layout is that of Halide's src/runtime/device_interface.h), and two
// generic entry points the runtime defines.
extern "C" {
struct halide_device_interface_impl_t {
    void (*use_module)();
    void (*release_module)();
    int (*device_malloc)(void *user_context, halide_buffer_t *buf);
    int (*device_free)(void *user_context, halide_buffer_t *buf);
    int (*device_sync)(void *user_context, halide_buffer_t *buf);
    int (*device_release)(void *user_context);
    int (*copy_to_host)(void *user_context, halide_buffer_t *buf);
    int (*copy_to_device)(void *user_context, halide_buffer_t *buf);
    int (*device_and_host_malloc)(void *user_context, halide_buffer_t *buf);
    int (*device_and_host_free)(void *user_context, halide_buffer_t *buf);
    int (*buffer_copy)(void *user_context, halide_buffer_t *src, const halide_device_interface_t *dst_interface,
                       halide_buffer_t *dst);
    int (*device_crop)(void *user_context, const halide_buffer_t *src, halide_buffer_t *dst);
    int (*device_slice)(void *user_context, const halide_buffer_t *src, int slice_dim, int slice_pos,
                        halide_buffer_t *dst);
    int (*device_release_crop)(void *user_context, halide_buffer_t *buf);
    int (*wrap_native)(void *user_context, halide_buffer_t *buf, uint64_t handle);
    int (*detach_native)(void *user_context, halide_buffer_t *buf);
};
int halide_device_and_host_malloc(void *user_context, halide_buffer_t *buf,
                                  const halide_device_interface_t *device_interface);
int halide_device_and_host_free(void *user_context, halide_buffer_t *buf);
}

namespace hdml::d3d12 {

namespace {

// D3D12's limits (d3d12.h's D3D12_REQ_BUFFER_RESOURCE_TEXEL_COUNT_2_TO_EXP and
// D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION; MinGW's header lacks them):
// a typed buffer view spans at most 2^27 elements, a dispatch 65535 groups per dimension.
constexpr uint64_t kMaxViewElements = uint64_t(1) << 27;
constexpr UINT kMaxGroupsPerDimension = 65535;

// A kernel's HLSL module (the pipeline's state_ptr points at it).
struct Module {
    const char *source;
    size_t bytes;
};

int report(void *user_context, const std::string &message) {
    halide_error(user_context, ("D3D12: " + message).c_str());
    return halide_error_code_device_run_failed;
}

// Typed UAV formats of Halide's scalar types (bool as 8 bits).
DXGI_FORMAT format_of(halide_type_t type) {
    static const DXGI_FORMAT kFormats[3][3] = {
        {DXGI_FORMAT_R8_SINT, DXGI_FORMAT_R16_SINT, DXGI_FORMAT_R32_SINT},    // halide_type_int
        {DXGI_FORMAT_R8_UINT, DXGI_FORMAT_R16_UINT, DXGI_FORMAT_R32_UINT},    // halide_type_uint
        {DXGI_FORMAT_UNKNOWN, DXGI_FORMAT_R16_FLOAT, DXGI_FORMAT_R32_FLOAT},  // halide_type_float
    };
    const int bits = type.bits == 1 ? 8 : type.bits;
    const int size = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : -1;
    if (size < 0 || type.code > halide_type_float) return DXGI_FORMAT_UNKNOWN;
    return kFormats[type.code][size];
}

// The view of a kernel buffer: from its address to its last element.
int buffer_view(void *user_context, const Recording &recording, const halide_buffer_t *buf, halide_type_t type,
                D3D12_UNORDERED_ACCESS_VIEW_DESC *view, ID3D12Resource **resource) {
    const D3D12_GPU_VIRTUAL_ADDRESS address = buf->device;
    const Range *range = recording.find(address);
    if (!range) return report(user_context, format("a kernel buffer's address 0x%llx is in no bound resource",
                                                   (unsigned long long)address));
    const uint64_t bytes = type.bytes();
    if (bytes > 4 || (address - range->base) % bytes != 0) {
        return report(user_context, format("a kernel buffer of %llu-byte elements lies at an unaligned offset",
                                           (unsigned long long)bytes));
    }
    uint64_t last = 0;
    for (int d = 0; d < buf->dimensions; ++d) {
        if (buf->dim[d].extent <= 0) continue;
        const int64_t stride = buf->dim[d].stride;
        last += (uint64_t)(buf->dim[d].extent - 1) * (uint64_t)(stride < 0 ? -stride : stride);
    }
    const uint64_t first = (address - range->base) / bytes;
    const uint64_t elements = last + 1;
    if (elements > (range->bytes - (address - range->base)) / bytes) {
        return report(user_context, "a kernel buffer reaches past its resource");
    }
    if (elements > kMaxViewElements) {
        return report(user_context, format("a kernel buffer spans %llu elements; a D3D12 typed view takes at most 2^27",
                                           (unsigned long long)elements));
    }
    view->Format = format_of(type);
    if (view->Format == DXGI_FORMAT_UNKNOWN) {
        return report(user_context, "a kernel buffer has a type without a UAV format");
    }
    view->ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    view->Buffer.FirstElement = first;
    view->Buffer.NumElements = (UINT)elements;
    *resource = range->resource;
    return 0;
}

// The execution's recording, checked against the call's device.
Recording *recording_for(void *user_context) {
    Recording *recording = current_recording();
    const auto *call = static_cast<KernelCall *>(user_context);
    if (!recording || !call || call->device.d3d12 != &recording->context()) return nullptr;
    return recording;
}

// --- halide_device_interface_impl_t ---------------------------------------

void use_module() {}
void release_module() {}

int device_malloc(void *user_context, halide_buffer_t *buf) {
    if (buf->device) return 0;
    Recording *recording = recording_for(user_context);
    if (!recording) return report(user_context, "device memory was asked for outside an execution");
    std::string error;
    D3D12_GPU_VIRTUAL_ADDRESS address = 0;
    if (FAILED(recording->allocate(buf->size_in_bytes(), &address, &error))) return report(user_context, error);
    buf->device = address;
    buf->device_interface = halide_d3d12compute_device_interface();
    return 0;
}

// device_free, device_release_crop and detach_native: the buffer forgets its
// address (a freed one stays owned by the recording until the GPU has finished it).
int forget_device(void *, halide_buffer_t *buf) {
    buf->device = 0;
    buf->device_interface = nullptr;
    return 0;
}

int device_sync(void *, halide_buffer_t *) {
    return 0;  // executions are ordered on the queue; hdmlExecute does not wait
}

int device_release(void *) {
    return 0;
}

int no_host_copies(void *user_context, halide_buffer_t *) {
    return report(user_context, "hdml's D3D12 kernels do not copy between host and device memory");
}

int no_buffer_copy(void *user_context, halide_buffer_t *, const halide_device_interface_t *, halide_buffer_t *) {
    return report(user_context, "hdml's D3D12 kernels do not copy buffers");
}

int crop(void *, const halide_buffer_t *src, halide_buffer_t *dst) {
    int64_t offset = 0;
    for (int d = 0; d < src->dimensions; ++d) {
        offset += (int64_t)(dst->dim[d].min - src->dim[d].min) * src->dim[d].stride;
    }
    dst->device = src->device + (uint64_t)(offset * src->type.bytes());
    dst->device_interface = src->device_interface;
    return 0;
}

int slice(void *, const halide_buffer_t *src, int dim, int pos, halide_buffer_t *dst) {
    const int64_t offset = (int64_t)(pos - src->dim[dim].min) * src->dim[dim].stride;
    dst->device = src->device + (uint64_t)(offset * src->type.bytes());
    dst->device_interface = src->device_interface;
    return 0;
}

int wrap_native(void *, halide_buffer_t *buf, uint64_t address) {
    buf->device = address;
    buf->device_interface = halide_d3d12compute_device_interface();
    return 0;
}

const halide_device_interface_impl_t kImpl = {
    use_module, release_module, device_malloc, forget_device, device_sync, device_release, no_host_copies,
    no_host_copies, no_host_copies, no_host_copies, no_buffer_copy, crop, slice, forget_device, wrap_native,
    forget_device,
};

const halide_device_interface_t kInterface = {
    halide_device_malloc, halide_device_free, halide_device_sync, halide_device_release, halide_copy_to_host,
    halide_copy_to_device, halide_device_and_host_malloc, halide_device_and_host_free, halide_buffer_copy,
    halide_device_crop, halide_device_slice, halide_device_release_crop, halide_device_wrap_native,
    halide_device_detach_native, nullptr, &kImpl,
};

std::mutex g_modules_mutex;

}  // namespace

}  // namespace hdml::d3d12

using namespace hdml;
using namespace hdml::d3d12;

extern "C" {

const halide_device_interface_t *halide_d3d12compute_device_interface() {
    return &kInterface;
}

int halide_d3d12compute_initialize_kernels(void *, void **state_ptr, const char *src, int size) {
    std::lock_guard<std::mutex> lock(g_modules_mutex);
    if (!*state_ptr) *state_ptr = new Module{src, (size_t)size};  // one per kernel, kept for the process
    return 0;
}

void halide_d3d12compute_finalize_kernels(void *, void *) {}

int halide_d3d12compute_run(void *user_context, void *state_ptr, const char *entry_name, int blocksX, int blocksY,
                            int blocksZ, int threadsX, int threadsY, int threadsZ, int shared_mem_bytes,
                            halide_type_t arg_types[], void *args[], int8_t arg_is_buffer[]) {
    (void)threadsX, (void)threadsY, (void)threadsZ;  // the HLSL's numthreads says them
    Recording *recording = recording_for(user_context);
    if (!recording) return report(user_context, format("kernel entry %s was called outside an execution", entry_name));
    Context &c = recording->context();
    const UINT most = kMaxGroupsPerDimension;
    if (blocksX < 0 || blocksY < 0 || blocksZ < 0 || (UINT)blocksX > most || (UINT)blocksY > most ||
        (UINT)blocksZ > most) {
        return report(user_context, format("entry point %s needs %d x %d x %d thread groups; D3D12 dispatches at "
                                           "most %u per dimension",
                                           entry_name, blocksX, blocksY, blocksZ, most));
    }
    uint32_t words[kMaxKernelScalars] = {};
    UINT word_count = 0;
    D3D12_UNORDERED_ACCESS_VIEW_DESC views[kMaxKernelBuffers]{};
    ID3D12Resource *resources[kMaxKernelBuffers] = {};
    UINT buffer_count = 0;
    for (int i = 0; args[i]; ++i) {
        const halide_type_t type = arg_types[i];
        if (arg_is_buffer[i]) {
            if (buffer_count == kMaxKernelBuffers) return report(user_context, "a kernel binds more than 8 buffers");
            const auto *buf = static_cast<const halide_buffer_t *>(args[i]);
            if (type.bytes() < 4 && !c.small_typed_uav_loads) {
                return report(user_context, "this D3D12 device cannot load 8- or 16-bit typed UAVs "
                                            "(D3D12_FEATURE_DATA_D3D12_OPTIONS::TypedUAVLoadAdditionalFormats), which "
                                            "hdml's kernels of 8- and 16-bit types need");
            }
            const int rc = buffer_view(user_context, *recording, buf, type, &views[buffer_count],
                                       &resources[buffer_count]);
            if (rc) return rc;
            ++buffer_count;
            continue;
        }
        // Halide packs each scalar into a 32-bit word of the cbuffer, in order (sign- or zero-extended).
        if (word_count == kMaxKernelScalars) return report(user_context, "a kernel takes more than 32 scalars");
        uint32_t word = 0;
        if (type.code == halide_type_float && type.bits == 32) {
            std::memcpy(&word, args[i], 4);
        } else if (type.bits == 1) {
            word = *static_cast<const uint8_t *>(args[i]) ? 1 : 0;
        } else if (type.code == halide_type_int || type.code == halide_type_uint) {
            const bool is_signed = type.code == halide_type_int;
            const void *value = args[i];
            switch (type.bits) {
            case 8:
                word = is_signed ? (uint32_t)*static_cast<const int8_t *>(value) : *static_cast<const uint8_t *>(value);
                break;
            case 16:
                word = is_signed ? (uint32_t)*static_cast<const int16_t *>(value)
                                 : *static_cast<const uint16_t *>(value);
                break;
            case 32: std::memcpy(&word, value, 4); break;
            default: return report(user_context, "a kernel scalar is wider than 32 bits");
            }
        } else {
            return report(user_context, "a kernel scalar has a type HLSL cannot take");
        }
        words[word_count++] = word;
    }

    ID3D12PipelineState *pso = nullptr;
    std::string error;
    const auto *module = static_cast<const Module *>(state_ptr);
    if (FAILED(pipeline(c, module->source, module->bytes, entry_name, shared_mem_bytes, &pso, &error))) {
        return report(user_context, error);
    }
    D3D12_CPU_DESCRIPTOR_HANDLE cpu;
    D3D12_GPU_DESCRIPTOR_HANDLE gpu;
    if (FAILED(recording->descriptors(&cpu, &gpu, &error))) return report(user_context, error);
    for (UINT k = 0; k < kMaxKernelBuffers; ++k) {
        D3D12_CPU_DESCRIPTOR_HANDLE slot = cpu;
        slot.ptr += (SIZE_T)k * c.descriptor_bytes;
        if (k < buffer_count) {
            c.device->CreateUnorderedAccessView(resources[k], nullptr, &views[k], slot);
        } else {  // a null view: the table's unused slots must still hold descriptors
            D3D12_UNORDERED_ACCESS_VIEW_DESC null_view{};
            null_view.Format = DXGI_FORMAT_R32_UINT;
            null_view.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
            c.device->CreateUnorderedAccessView(nullptr, nullptr, &null_view, slot);
        }
    }
    ID3D12GraphicsCommandList *list = recording->list();
    list->SetPipelineState(pso);
    if (word_count) list->SetComputeRoot32BitConstants(0, word_count, words, 0);
    list->SetComputeRootDescriptorTable(1, gpu);
    list->Dispatch((UINT)blocksX, (UINT)blocksY, (UINT)blocksZ);
    // The next dispatch may read what this one wrote.
    D3D12_RESOURCE_BARRIER barrier{};
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = nullptr;
    list->ResourceBarrier(1, &barrier);
    return 0;
}

}  // extern "C"
