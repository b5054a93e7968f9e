#include "runtime/d3d12/api.h"

#include "runtime/dynamic_library.h"
#include "runtime/error.h"

namespace hdml::d3d12 {

namespace {

struct Loaded {
    Api api;
    std::string why;
    bool ok = false;
};

Loaded load() {
    namespace dl = hdml::dynamic_library;
    Loaded loaded;
    void *d3d12 = dl::open("d3d12.dll");
    void *dxgi = dl::open("dxgi.dll");
    if (!d3d12 || !dxgi) {
        loaded.why = dl::open_error(d3d12 ? "dxgi.dll" : "d3d12.dll");
        return loaded;
    }
    loaded.api.create_device = reinterpret_cast<PFN_D3D12_CREATE_DEVICE>(dl::symbol(d3d12, "D3D12CreateDevice"));
    loaded.api.serialize_root_signature =
        reinterpret_cast<decltype(Api::serialize_root_signature)>(dl::symbol(d3d12, "D3D12SerializeRootSignature"));
    loaded.api.create_dxgi_factory1 =
        reinterpret_cast<decltype(Api::create_dxgi_factory1)>(dl::symbol(dxgi, "CreateDXGIFactory1"));
    if (!loaded.api.create_device || !loaded.api.serialize_root_signature || !loaded.api.create_dxgi_factory1) {
        loaded.why = "d3d12.dll or dxgi.dll lacks D3D12CreateDevice, D3D12SerializeRootSignature or CreateDXGIFactory1";
        return loaded;
    }
    if (void *compiler = dl::open("d3dcompiler_47.dll")) {
        loaded.api.compile = reinterpret_cast<pD3DCompile>(dl::symbol(compiler, "D3DCompile"));
    }
    loaded.ok = true;
    return loaded;
}

}  // namespace

const Api *api(std::string *why) {
    static const Loaded loaded = load();
    if (!loaded.ok && why) *why = loaded.why;
    return loaded.ok ? &loaded.api : nullptr;
}

std::string hresult_hex(HRESULT hr) {
    return format("0x%08lx", (unsigned long)hr);
}

HRESULT call_failed(const char *who, const char *what, HRESULT hr) {
    return fail(FAILED(hr) ? hr : E_FAIL, format("%s: %s failed with HRESULT %s.", who, what, hresult_hex(hr).c_str()));
}

}  // namespace hdml::d3d12
