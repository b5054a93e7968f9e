#include "runtime/device_scratch.h"

#include "runtime/error.h"

#if HDML_HAVE_D3D12
#include "runtime/d3d12/recording.h"
#endif

namespace hdml {

HRESULT DeviceScratch::allocate(const hdml_device &device, size_t bytes) {
    if (on_d3d12(device)) {
#if HDML_HAVE_D3D12
        uint64_t address = 0;
        HDML_RETURN_IF_FAILED(d3d12::allocate_scratch(bytes, &address));
        address_ = reinterpret_cast<uint8_t *>((uintptr_t)address);
        return S_OK;
#else
        return fail(E_FAIL, "hdmlExecute: this build of hdml has no D3D12 device.");
#endif
    }
    HDML_RETURN_IF_FAILED(cuda_.allocate(device, bytes));
    address_ = cuda_.data();
    return S_OK;
}

}  // namespace hdml
