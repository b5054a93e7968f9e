// hdml's public headers beside the Windows SDK's (MinGW-w64's in CI): windows.h
// and d3d12.h first, as a DirectML program has them, and hdml's Win32 types
// are then the SDK's own. Windows builds only.
#include <windows.h>
#include <d3d12.h>

#include <hdml/hdml.h>

#include <cstdio>
#include <type_traits>

static_assert(std::is_same<decltype(hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, nullptr)), HRESULT>::value,
              "hdml returns the SDK's HRESULT");
static_assert(std::is_same<decltype(DML_BUFFER_TENSOR_DESC::DimensionCount), UINT>::value, "UINT is the SDK's");
static_assert(std::is_same<decltype(DML_REDUCE_OPERATOR_DESC::AxisCount), UINT>::value, "UINT is the SDK's");
static_assert(E_INVALIDARG == (HRESULT)0x80070057L && DXGI_ERROR_UNSUPPORTED == (HRESULT)0x887A0004L,
              "the SDK's codes are DirectML's");
static_assert(std::is_same<decltype(&hdmlCreateDeviceFromD3D12),
                           HRESULT (*)(ID3D12Device *, ID3D12CommandQueue *, hdml_device **)>::value,
              "hdmlCreateDeviceFromD3D12 takes the SDK's ID3D12Device and ID3D12CommandQueue");

int main() {
    hdml_device *device = nullptr;
    const HRESULT cpu = hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &device);
    hdmlReleaseDevice(device);
    // A D3D12 device where DXGI has an adapter D3D12 runs on; else DXGI_ERROR_UNSUPPORTED and why.
    hdml_device *d3d12 = nullptr;
    const HRESULT gpu = hdmlCreateDevice(HDML_DEVICE_TYPE_D3D12, 0, &d3d12);
    std::printf("CPU device: 0x%08lx; D3D12 device: 0x%08lx (%s)\n", (unsigned long)cpu, (unsigned long)gpu,
                hdmlGetLastErrorMessage());
    const bool d3d12_ok = gpu == S_OK ? d3d12 != nullptr : gpu == DXGI_ERROR_UNSUPPORTED && d3d12 == nullptr;
    hdmlReleaseDevice(d3d12);
    return SUCCEEDED(cpu) && d3d12_ok ? 0 : 1;
}
