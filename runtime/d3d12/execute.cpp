#include "runtime/d3d12/execute.h"

#include "runtime/bindings.h"
#include "runtime/checked.h"
#include "runtime/d3d12/recording.h"
#include "runtime/error.h"

#include <vector>

namespace hdml::d3d12 {

namespace {

// The bindings with each ID3D12Resource replaced by its GPU virtual address,
// and the resources recorded as ranges the kernels may address. Counts, null
// buffers and the rest are left to check_bindings.
HRESULT to_addresses(Recording &recording, const char *kind, uint32_t count, const HDML_BUFFER_BINDING *bindings,
                     const std::vector<Tensor> &tensors, std::vector<HDML_BUFFER_BINDING> *out) {
    if (!bindings || count != tensors.size()) return S_OK;
    out->assign(bindings, bindings + count);
    for (uint32_t k = 0; k < count; ++k) {
        HDML_BUFFER_BINDING &b = (*out)[k];
        if (!b.Buffer) continue;
        const char *name = tensors[k].name.c_str();
        auto *resource = static_cast<ID3D12Resource *>(b.Buffer);
        const D3D12_RESOURCE_DESC desc = resource->GetDesc();
        if (desc.Dimension != D3D12_RESOURCE_DIMENSION_BUFFER) {
            return invalid_arg(format("hdmlExecute: the %s binding of tensor '%s' is an ID3D12Resource of dimension "
                                      "%d; hdml binds buffers (D3D12_RESOURCE_DIMENSION_BUFFER).",
                                      kind, name, (int)desc.Dimension));
        }
        if (!(desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS)) {
            return invalid_arg(format("hdmlExecute: the %s binding of tensor '%s' is a buffer without "
                                      "D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, which hdml's kernels need.",
                                      kind, name));
        }
        uint64_t end;
        if (!checked_add<uint64_t>(b.Offset, b.SizeInBytes, &end) || end > desc.Width) {
            return invalid_arg(format("hdmlExecute: the %s binding of tensor '%s' has Offset %llu and SizeInBytes "
                                      "%llu, past the end of its %llu-byte buffer.",
                                      kind, name, (unsigned long long)b.Offset, (unsigned long long)b.SizeInBytes,
                                      (unsigned long long)desc.Width));
        }
        const D3D12_GPU_VIRTUAL_ADDRESS address = resource->GetGPUVirtualAddress();
        recording.add_range(address, desc.Width, resource);
        b.Buffer = reinterpret_cast<void *>((uintptr_t)address);
    }
    return S_OK;
}

}  // namespace

HRESULT execute(hdml_operator &op, uint32_t input_count, const HDML_BUFFER_BINDING *inputs, uint32_t output_count,
                const HDML_BUFFER_BINDING *outputs) {
    Context &context = *op.device.d3d12;
    std::unique_ptr<Recording> recording;
    HDML_RETURN_IF_FAILED(acquire_recording(context, &recording));
    std::vector<HDML_BUFFER_BINDING> input_addresses, output_addresses;
    HDML_RETURN_IF_FAILED(to_addresses(*recording, "input", input_count, inputs, op.inputs, &input_addresses));
    HDML_RETURN_IF_FAILED(to_addresses(*recording, "output", output_count, outputs, op.outputs, &output_addresses));
    std::vector<void *> in, out;
    HDML_RETURN_IF_FAILED(check_bindings(op, input_count, input_addresses.empty() ? inputs : input_addresses.data(),
                                         output_count, output_addresses.empty() ? outputs : output_addresses.data(),
                                         &in, &out));
    {
        CurrentRecording current(recording.get());
        HDML_RETURN_IF_FAILED(op.run(in.data(), out.data()));
    }
    return submit(context, std::move(recording));
}

}  // namespace hdml::d3d12
