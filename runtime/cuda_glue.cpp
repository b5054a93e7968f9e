// Points Halide's CUDA runtime at the hdml device a kernel is called for.
// By default Halide 14 creates one context of its own and uses the legacy
// default stream; hdml installs hooks that read the context and stream from the
// call's KernelCall (the kernels' user_context), so kernels run in the device's
// context, enqueued asynchronously on its stream.
#include "HalideRuntimeCuda.h"
#include "runtime/halide_glue.h"

namespace hdml {

namespace {

const hdml_device *device_of(void *user_context) {
    return user_context ? &static_cast<KernelCall *>(user_context)->device : nullptr;
}

int acquire_context(void *user_context, void **context, bool /*create*/) {
    const hdml_device *device = device_of(user_context);
    if (!device || !device->cuda_context) {
        // Halide's own calls without a call context (its release at process
        // exit) get none: hdml keeps what the runtime loaded until then.
        *context = nullptr;
        return halide_error_code_device_interface_no_device;
    }
    *context = device->cuda_context;
    return 0;
}

int release_context(void * /*user_context*/) {
    return 0;
}

int get_stream(void *user_context, void * /*context*/, void **stream) {
    const hdml_device *device = device_of(user_context);
    *stream = device ? device->cuda_stream : nullptr;
    return 0;
}

}  // namespace

void install_cuda_hooks() {
    halide_set_cuda_acquire_context(acquire_context);
    halide_set_cuda_release_context(release_context);
    halide_set_cuda_get_stream(get_stream);
}

}  // namespace hdml
