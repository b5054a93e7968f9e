"""hdml's C API from Python (ctypes), for the benchmarks against PyTorch: operators
are built from DirectML descriptors over PyTorch tensors' memory. On CUDA
(bench/cuda) they run on PyTorch's own context and stream
(hdmlCreateDeviceFromCudaContext), so hdml and PyTorch are timed the same way on
the same stream; on the CPU (bench/cpu) on hdml's CPU device over the tensors'
host memory."""
import ctypes

UINT = ctypes.c_uint32

FLOAT32, FLOAT16, UINT32, INT32, INT64 = 1, 2, 3, 6, 11
ELEMENT_BYTES = {FLOAT32: 4, FLOAT16: 2, UINT32: 4, INT32: 4, INT64: 8}
DEVICE_TYPE_CPU = 0
TENSOR_TYPE_BUFFER = 1
OP_REDUCE, OP_SPLIT, OP_JOIN, OP_GATHER, OP_CUMSUM, OP_ARGMIN, OP_ARGMAX, OP_CUMPROD = 55, 62, 63, 67, 105, 137, 138, 145
REDUCE = dict(ARGMAX=0, ARGMIN=1, AVERAGE=2, L1=3, L2=4, LOG_SUM=5, LOG_SUM_EXP=6, MAX=7, MIN=8, MULTIPLY=9,
              SUM=10, SUM_SQUARE=11)


class BufferTensorDesc(ctypes.Structure):
    _fields_ = [("DataType", ctypes.c_int), ("Flags", ctypes.c_int), ("DimensionCount", UINT),
                ("Sizes", ctypes.POINTER(UINT)), ("Strides", ctypes.POINTER(UINT)),
                ("TotalTensorSizeInBytes", ctypes.c_uint64), ("GuaranteedBaseOffsetAlignment", UINT)]


class TensorDesc(ctypes.Structure):
    _fields_ = [("Type", ctypes.c_int), ("Desc", ctypes.c_void_p)]


class OperatorDesc(ctypes.Structure):
    _fields_ = [("Type", ctypes.c_int), ("Desc", ctypes.c_void_p)]


class Binding(ctypes.Structure):
    _fields_ = [("Buffer", ctypes.c_void_p), ("Offset", ctypes.c_uint64), ("SizeInBytes", ctypes.c_uint64)]


PTD = ctypes.POINTER(TensorDesc)


class ReduceDesc(ctypes.Structure):
    _fields_ = [("Function", ctypes.c_int), ("InputTensor", PTD), ("OutputTensor", PTD), ("AxisCount", UINT),
                ("Axes", ctypes.POINTER(UINT))]


class ArgDesc(ctypes.Structure):
    _fields_ = [("InputTensor", PTD), ("OutputTensor", PTD), ("AxisCount", UINT), ("Axes", ctypes.POINTER(UINT)),
                ("AxisDirection", ctypes.c_int)]


class ScanDesc(ctypes.Structure):
    _fields_ = [("InputTensor", PTD), ("OutputTensor", PTD), ("Axis", UINT), ("AxisDirection", ctypes.c_int),
                ("HasExclusive", ctypes.c_int)]


class GatherDesc(ctypes.Structure):
    _fields_ = [("InputTensor", PTD), ("IndicesTensor", PTD), ("OutputTensor", PTD), ("Axis", UINT),
                ("IndexDimensions", UINT)]


class SplitDesc(ctypes.Structure):
    _fields_ = [("InputTensor", PTD), ("OutputCount", UINT), ("OutputTensors", PTD), ("Axis", UINT)]


class JoinDesc(ctypes.Structure):
    _fields_ = [("InputCount", UINT), ("InputTensors", PTD), ("OutputTensor", PTD), ("Axis", UINT)]


def uints(values):
    return (UINT * len(values))(*values)


class Hdml:
    def __init__(self, library_path, torch, device="cuda"):
        """device "cuda": PyTorch's CUDA context and stream; "cpu": hdml's CPU device
        (threads: HL_NUM_THREADS, read when the first operator runs)."""
        self.lib = ctypes.CDLL(library_path)
        self.lib.hdmlGetLastErrorMessage.restype = ctypes.c_char_p
        self.keep = []  # ctypes objects the descs point into, alive for the run
        self.device = ctypes.c_void_p()
        if device == "cpu":
            self.check(self.lib.hdmlCreateDevice(DEVICE_TYPE_CPU, 0, ctypes.byref(self.device)), "hdmlCreateDevice")
            return
        cuda = ctypes.CDLL("libcuda.so.1")
        context = ctypes.c_void_p()
        torch.zeros(1, device="cuda")  # PyTorch's primary context is current from here on
        assert cuda.cuCtxGetCurrent(ctypes.byref(context)) == 0 and context.value
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream or None)
        self.check(self.lib.hdmlCreateDeviceFromCudaContext(context, stream, ctypes.byref(self.device)),
                   "hdmlCreateDeviceFromCudaContext")

    def check(self, hr, what):
        if hr != 0:
            raise RuntimeError(f"{what}: 0x{hr & 0xffffffff:08x} {self.lib.hdmlGetLastErrorMessage().decode()}")

    def tensor(self, t, data_type=None):
        """A DML tensor desc of torch tensor `t` (its sizes and element strides)."""
        data_type = data_type or {"torch.float16": FLOAT16, "torch.float32": FLOAT32, "torch.int32": INT32,
                                  "torch.int64": INT64}[str(t.dtype)]
        sizes, strides = uints(list(t.shape)), uints(list(t.stride()))
        extent = sum((s - 1) * st for s, st in zip(t.shape, t.stride())) + 1
        total = (extent * ELEMENT_BYTES[data_type] + 3) // 4 * 4
        buffer = BufferTensorDesc(data_type, 0, len(t.shape), sizes, strides, total, 0)
        desc = TensorDesc(TENSOR_TYPE_BUFFER, ctypes.cast(ctypes.pointer(buffer), ctypes.c_void_p))
        self.keep += [sizes, strides, buffer, desc]
        return desc, Binding(t.data_ptr(), 0, total)

    def operator(self, op_type, desc):
        self.keep.append(desc)
        op = ctypes.c_void_p()
        self.check(self.lib.hdmlCreateOperator(self.device, ctypes.byref(OperatorDesc(op_type, ctypes.cast(
            ctypes.pointer(desc), ctypes.c_void_p))), ctypes.byref(op)), "hdmlCreateOperator")
        return op

    def runner(self, op, inputs, outputs):
        """A no-argument callable that runs the operator (on CUDA: enqueues it on the stream)."""
        ins, outs = (Binding * len(inputs))(*inputs), (Binding * len(outputs))(*outputs)
        self.keep += [ins, outs]
        execute, check = self.lib.hdmlExecute, self.check

        def run():
            check(execute(op, len(inputs), ins, len(outputs), outs), "hdmlExecute")
        return run

    # Operators -----------------------------------------------------------------
    def reduce(self, function, x, dims, out):
        (xd, xb), (od, ob) = self.tensor(x), self.tensor(out.view([1 if d in dims else s for d, s in
                                                                    enumerate(x.shape)]))
        axes = uints(sorted(dims))
        self.keep.append(axes)
        op = self.operator(OP_REDUCE, ReduceDesc(REDUCE[function], ctypes.pointer(xd), ctypes.pointer(od),
                                                 len(dims), axes))
        return self.runner(op, [xb], [ob])

    def arg_reduce(self, find_min, x, dims, out):
        (xd, xb), (od, ob) = self.tensor(x), self.tensor(out.view([1 if d in dims else s for d, s in
                                                                    enumerate(x.shape)]), INT64)
        axes = uints(sorted(dims))
        self.keep.append(axes)
        op = self.operator(OP_ARGMIN if find_min else OP_ARGMAX,
                           ArgDesc(ctypes.pointer(xd), ctypes.pointer(od), len(dims), axes, 0))
        return self.runner(op, [xb], [ob])

    def gather(self, x, indices, dim, out):
        """DML GATHER along `dim` with a 1-D index tensor (PyTorch's index_select)."""
        shape = [1] * x.dim()
        shape[-1] = indices.numel()
        (xd, xb), (id_, ib), (od, ob) = self.tensor(x), self.tensor(indices.view(shape)), self.tensor(out)
        op = self.operator(OP_GATHER, GatherDesc(ctypes.pointer(xd), ctypes.pointer(id_), ctypes.pointer(od), dim, 1))
        return self.runner(op, [xb, ib], [ob])

    def scan(self, product, x, dim, out, exclusive=False):
        (xd, xb), (od, ob) = self.tensor(x), self.tensor(out)
        op = self.operator(OP_CUMPROD if product else OP_CUMSUM,
                           ScanDesc(ctypes.pointer(xd), ctypes.pointer(od), dim, 0, int(exclusive)))
        return self.runner(op, [xb], [ob])

    def split(self, x, pieces, dim):
        xd, xb = self.tensor(x)
        descs = [self.tensor(p) for p in pieces]
        array = (TensorDesc * len(pieces))(*[d for d, _ in descs])
        self.keep.append(array)
        op = self.operator(OP_SPLIT, SplitDesc(ctypes.pointer(xd), len(pieces), array, dim))
        return self.runner(op, [xb], [b for _, b in descs])

    def join(self, pieces, out, dim):
        od, ob = self.tensor(out)
        descs = [self.tensor(p) for p in pieces]
        array = (TensorDesc * len(pieces))(*[d for d, _ in descs])
        self.keep.append(array)
        op = self.operator(OP_JOIN, JoinDesc(len(pieces), array, ctypes.pointer(od), dim))
        return self.runner(op, [b for _, b in descs], [ob])
