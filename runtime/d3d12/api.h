// The D3D12 entry points hdml calls, resolved at run time from d3d12.dll,
// dxgi.dll and d3dcompiler_47.dll, so hdml.dll loads (and its CPU device
// works) on machines without them.
#pragma once

#include <windows.h>
#include <d3d12.h>
#include <d3dcompiler.h>

#include <string>

namespace hdml::d3d12 {

struct Api {
    PFN_D3D12_CREATE_DEVICE create_device = nullptr;
    HRESULT(WINAPI *serialize_root_signature)(const D3D12_ROOT_SIGNATURE_DESC *, D3D_ROOT_SIGNATURE_VERSION,
                                              ID3DBlob **, ID3DBlob **) = nullptr;
    HRESULT(WINAPI *create_dxgi_factory1)(REFIID, void **) = nullptr;
    pD3DCompile compile = nullptr;  // null when d3dcompiler_47.dll is missing: kernels then fail to compile
};

// The process-wide table, or nullptr with *why set (d3d12.dll or dxgi.dll missing).
const Api *api(std::string *why);

// An HRESULT as messages print it: 0x887a0004.
std::string hresult_hex(HRESULT hr);

// Records "<who>: <what> failed with HRESULT 0x...." and returns hr (E_FAIL if hr succeeded).
HRESULT call_failed(const char *who, const char *what, HRESULT hr);

}  // namespace hdml::d3d12
