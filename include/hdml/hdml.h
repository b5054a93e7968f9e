/* hdml/hdml.h — create and run DirectML-described operators on CPU and GPU.
 *
 * The flow follows DirectML's: create a device, create an operator from a
 * DML_OPERATOR_DESC (validated and compiled there), execute it on bound
 * buffers. Every function that can fail returns an HRESULT; on failure
 * hdmlGetLastErrorMessage() describes why (the tensor, the field and the rule,
 * as DirectML's debug layer does).
 *
 * Binding order: tensors are bound in the order the operator desc declares
 * them (REDUCE: InputTensor, OutputTensor; GATHER: InputTensor, IndicesTensor;
 * SPLIT: OutputTensors[0..n); JOIN: InputTensors[0..n)). Offsets are in bytes.
 * On the CPU device, HDML_BUFFER_BINDING::Buffer is a host pointer; on a CUDA
 * device it is a device pointer (a CUdeviceptr cast to void*), as DirectML
 * binds GPU resources, and outputs stay in device memory. On a D3D12 device it
 * is an ID3D12Resource* of a buffer created with
 * D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS (Offset + SizeInBytes within its
 * width), as in DML_BUFFER_BINDING.
 *
 * CUDA synchronisation rule: hdmlExecute on a CUDA device enqueues the
 * operator's kernels on the device's stream and returns without waiting. The
 * inputs must be ready when that stream reaches the operator (produce them on
 * the same stream, or make the stream wait for them), and the outputs are ready
 * once the stream has passed it (cuStreamSynchronize, or an event recorded on
 * the stream after hdmlExecute). Bound buffers must stay allocated until then.
 * A failure that hdmlExecute returns was detected before anything was enqueued,
 * or is the launch error of a kernel.
 *
 * D3D12 synchronisation rule: hdmlExecute on a D3D12 device records the
 * operator's dispatches into a command list of hdml's and submits it to the
 * device's queue (ExecuteCommandLists), without waiting. As with DirectML's
 * bindings, the bound buffers must be in D3D12_RESOURCE_STATE_UNORDERED_ACCESS
 * (or COMMON, promoted implicitly) when the queue reaches the operator, and
 * stay alive until it has passed it; the inputs must be written by then (work
 * earlier on the same queue, or a fence the queue waits for), and the outputs
 * are ready after it (signal a fence on the queue after hdmlExecute and wait
 * for it, or submit the consumer to the same queue). hdml signals a fence of
 * its own after each execution, to recycle its command lists.
 *
 * Threads: devices and operators may be shared between threads; a single
 * operator may be executed concurrently on distinct buffers.
 *
 * Memory: on a CPU device, a float16 CUMULATIVE_* operator along an outer axis
 * keeps its float32 running totals (a slab of rows of its columns: up to
 * 1 MiB by default, scan_carry_row_slab_bytes, or one row where a row is
 * larger) from its first execution until it is released; an execution
 * concurrent with another of the same operator allocates its own for that call.
 *
 * Environment: HDML_VERBOSE=1 logs, per operator created, the kernel chosen and
 * why. HDML_CPU_ISA=baseline|sse41|avx2 caps the x86 instruction set the
 * kernels may use (read once, when the first device is created).
 * HDML_64BIT_MOVES=word_pairs makes every device created after it is read (once)
 * move GATHER/SPLIT/JOIN's 64-bit data, and read GATHER's 64-bit indices, as
 * pairs of 32-bit words, as D3D12 devices always do (a test of that path).
 */
#ifndef HDML_HDML_H
#define HDML_HDML_H

#include <stdint.h>

#include "hdml/directml.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum HDML_DEVICE_TYPE {
    HDML_DEVICE_TYPE_CPU = 0,
    HDML_DEVICE_TYPE_CUDA = 1,
    HDML_DEVICE_TYPE_D3D12 = 2
} HDML_DEVICE_TYPE;

typedef struct hdml_device hdml_device;
typedef struct hdml_operator hdml_operator;

typedef struct HDML_BUFFER_BINDING {
    void* Buffer;
    uint64_t Offset;
    uint64_t SizeInBytes;
} HDML_BUFFER_BINDING;

/* DXGI_ERROR_UNSUPPORTED when the device type is not built in or has no hardware
 * (for CUDA: no libcuda.so.1, a driver older than CUDA 11.2, or no GPU; the
 * message says which). E_INVALIDARG when HDML_DISPATCH_<PLATFORM> (e.g.
 * HDML_DISPATCH_CUDA) names a file that cannot be read or is not a valid
 * params file: its "dispatch" thresholds replace the built-in ones (see the
 * README's "Dispatch thresholds"); on a CPU device also when HDML_CPU_DEFAULTS
 * is neither "none" nor a CPU with built-in rows of its own. A CUDA device runs in the GPU's primary context, on a
 * non-blocking stream of its own. */
HDML_API HRESULT hdmlCreateDevice(HDML_DEVICE_TYPE type, uint32_t ordinal, hdml_device** device);

/* A CUDA device that runs in the caller's context (a CUcontext), enqueuing on the
 * caller's stream (a CUstream; NULL is the context's legacy default stream), as
 * DirectML takes the caller's D3D12 device and queue: hdml then interoperates
 * with frameworks that own the GPU (PyTorch, ...). hdml never destroys them.
 * The kernels hdml loads into a context stay there until the process exits
 * (Halide's runtime caches them per context), so the context must stay alive
 * while the process uses hdml. Creating the device enqueues a 4-byte allocation
 * and memset on the stream (a zero word hdml copies from); releasing it, the free.
 * HDML_DISPATCH_CUDA is read as by hdmlCreateDevice. */
struct CUctx_st;
struct CUstream_st;
HDML_API HRESULT hdmlCreateDeviceFromCudaContext(struct CUctx_st* context, struct CUstream_st* stream,
                                                 hdml_device** device);

/* A D3D12 device on the caller's ID3D12Device, submitting to the caller's
 * ID3D12CommandQueue (of type COMPUTE or DIRECT), as DirectML takes them; hdml
 * holds a reference to each until hdmlReleaseDevice. hdmlCreateDevice(
 * HDML_DEVICE_TYPE_D3D12, i) creates one on DXGI's adapter i, with a compute
 * queue of hdml's. Kernels are compiled from HLSL (D3DCompile, cs_5_1, from
 * d3dcompiler_47.dll) when an operator first runs; a compiler failure is
 * returned by hdmlExecute with its log. 8- and 16-bit tensors need typed UAV
 * loads of those formats (TypedUAVLoadAdditionalFormats). DXGI_ERROR_UNSUPPORTED
 * in builds without the D3D12 device (every build but Windows ones with the
 * d3d12 platform) and where d3d12.dll cannot be loaded. */
struct ID3D12Device;
struct ID3D12CommandQueue;
HDML_API HRESULT hdmlCreateDeviceFromD3D12(struct ID3D12Device* d3d12Device, struct ID3D12CommandQueue* queue,
                                           hdml_device** device);

/* Validates the desc (E_INVALIDARG with a message on any violation) and
 * prepares the kernels. The desc and its arrays need not outlive the call. */
HDML_API HRESULT hdmlCreateOperator(hdml_device* device, const DML_OPERATOR_DESC* desc, hdml_operator** op);

/* Runs the operator. Checks the binding counts, that buffers are non-null,
 * that each range holds the tensor's TotalTensorSizeInBytes, that offsets are
 * multiples of the tensor's GuaranteedBaseOffsetAlignment (16 if 0), and that
 * Offset + SizeInBytes is below 2^56 and does not wrap the address space from
 * Buffer. Overlap: an output's bytes [Offset, Offset + TotalTensorSizeInBytes)
 * may share nothing with any other binding's (as DirectML may write anywhere
 * in an output's TotalTensorSizeInBytes); inputs may overlap each other. The
 * one exception is in-place execution of CUMULATIVE_SUMMATION/PRODUCT: the
 * output bound at exactly the input's address, with the same Strides. Any
 * violation returns E_INVALIDARG before anything runs. */
HDML_API HRESULT hdmlExecute(hdml_operator* op, uint32_t inputCount, const HDML_BUFFER_BINDING* inputs,
                             uint32_t outputCount, const HDML_BUFFER_BINDING* outputs);

/* Release a device's operators before the device (and, on CUDA, after the
 * device's stream has finished their work; releasing a D3D12 device waits
 * until its queue has passed every execution hdml submitted). NULL is ignored. As with a COM
 * object's last Release, the handle is gone afterwards: releasing it again, or
 * using it, is undefined behaviour that hdml does not detect. */
HDML_API void hdmlReleaseOperator(hdml_operator* op);
HDML_API void hdmlReleaseDevice(hdml_device* device);

/* Diagnostics: the names of the generated kernels the operator calls,
 * space-separated, in the order it may call them (e.g. the copy that packs
 * a strided input, then the reduction; a kernel taken only for aligned
 * inputs or in-place exclusive scans comes after the one it stands in for).
 * The string lives as long as the operator. NULL for a NULL operator.
 * HDML_VERBOSE=1 logs the same choice at hdmlCreateOperator with the shape
 * and why each earlier variant of the family's list was passed over. */
HDML_API const char* hdmlGetOperatorKernels(const hdml_operator* op);

/* Thread-local: describes the last failure on this thread ("" if none), in
 * at most 4095 bytes (a longer message is cut and ends in " [...]"). The
 * pointer stays valid on this thread; the next hdml call may change the text. */
HDML_API const char* hdmlGetLastErrorMessage(void);

#ifdef __cplusplus
}
#endif

#endif /* HDML_HDML_H */
