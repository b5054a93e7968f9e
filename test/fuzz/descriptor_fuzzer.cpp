// libFuzzer target: operator descs built from the input (structure-aware), then
// created, and where creation succeeds and the tensors are small, executed on
// real buffers (each its own heap allocation, so ASan sees any byte outside
// it) with bindings that are sometimes hostile: offsets near 2^64, sizes that
// wrap, outputs overlapping inputs. Sizes and strides come mostly from
// boundary values: 0, 1, 2^k ± 1, and factors whose products wrap 2^32 and 2^64.
//
// Invariants beyond the sanitizers: a failure is E_INVALIDARG (or
// E_OUTOFMEMORY) with a message; a created operator executes with S_OK on
// valid bindings.
#include "cpu_device.h"
#include "hdml/hdml.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace {

const uint32_t kBoundarySizes[] = {
    0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 64, 255, 256, 257, 65535, 65536, 65537,
    0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF,
    5581, 8681, 49477, 384773,  // with 4 and 5: a product of 2^64 + 4
    641, 6700417,               // 2^32 + 1
};
const uint32_t kBoundaryStrides[] = {0, 1, 2, 3, 16, 1024, 65536, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF};
const int32_t kTypes[] = {
    DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_INT32,   DML_TENSOR_DATA_TYPE_INT16,  DML_TENSOR_DATA_TYPE_INT8,
    DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_INT64,  DML_TENSOR_DATA_TYPE_UINT4,
    DML_TENSOR_DATA_TYPE_UNKNOWN, 99, -1};

// Stores any 32-bit value in an enum field, as a C caller can (loading a value
// outside the enum through its type would be undefined; hdml reads the bits).
template <typename Enum>
void set_raw(Enum &field, int32_t value) {
    static_assert(sizeof(Enum) == sizeof(int32_t), "DirectML enums are 32-bit");
    std::memcpy(&field, &value, sizeof field);
}
constexpr uint64_t kMaxExecutedBytes = 1 << 16;
constexpr double kMaxExecutedElements = 1 << 16;

// Sizes and strides hold 8 entries whatever the rank, so a DimensionCount
// that lies (up to 8) still reads inside them, as a caller's arrays would be.
struct Tensor {
    uint32_t rank = 0;
    int32_t type = 0;  // DataType's value, which may be no DML_TENSOR_DATA_TYPE
    std::array<uint32_t, 8> sizes{}, strides{};
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC desc{};
};

class Builder {
public:
    explicit Builder(FuzzedDataProvider &in) : in_(in) {}

    uint32_t size() {
        switch (in_.ConsumeIntegralInRange(0, 7)) {
        case 0: return in_.PickValueInArray(kBoundarySizes);
        case 1: return in_.ConsumeIntegral<uint32_t>();
        default: return in_.ConsumeIntegralInRange<uint32_t>(1, 9);  // small: executable
        }
    }

    // A tensor of `like`'s shape (when given) with some sizes changed, or a new one.
    Tensor &tensor(const Tensor *like = nullptr) {
        tensors_.push_back(std::make_unique<Tensor>());
        Tensor &t = *tensors_.back();
        const uint32_t rank = like && in_.ConsumeBool() ? like->rank : in_.ConsumeIntegralInRange<uint32_t>(0, 8);
        t.rank = rank;
        for (uint32_t d = 0; d < rank; ++d) {
            const bool copy = like && d < like->rank && in_.ConsumeIntegralInRange(0, 3) != 0;
            t.sizes[d] = copy ? like->sizes[d] : size();
        }
        set_type(t, like && in_.ConsumeBool() ? like->type : in_.PickValueInArray(kTypes));
        t.buffer.DimensionCount = in_.ConsumeIntegralInRange(0, 31) == 0 ? in_.ConsumeIntegralInRange<uint32_t>(0, 8) : rank;
        t.buffer.Sizes = t.sizes.data();
        switch (in_.ConsumeIntegralInRange(0, 3)) {
        case 0: {  // explicit strides, from the boundary list or packed with padding
            uint64_t stride = 1;
            for (uint32_t d = rank; d-- > 0;) {
                t.strides[d] = in_.ConsumeBool() ? in_.PickValueInArray(kBoundaryStrides) : (uint32_t)stride;
                stride = stride * t.sizes[d] + in_.ConsumeIntegralInRange(0, 2);
            }
            t.buffer.Strides = t.strides.data();
            break;
        }
        case 1: {  // broadcast somewhere
            uint64_t stride = 1;
            for (uint32_t d = rank; d-- > 0;) {
                t.strides[d] = in_.ConsumeBool() ? 0 : (uint32_t)stride;
                stride *= t.sizes[d];
            }
            t.buffer.Strides = t.strides.data();
            break;
        }
        default: t.buffer.Strides = nullptr;
        }
        const uint64_t implied = implied_bytes(t, t.buffer.Strides);
        switch (in_.ConsumeIntegralInRange(0, 15)) {
        case 0: t.buffer.TotalTensorSizeInBytes = in_.ConsumeIntegral<uint64_t>(); break;
        case 1: t.buffer.TotalTensorSizeInBytes = implied - 4; break;
        default: t.buffer.TotalTensorSizeInBytes = implied;
        }
        if (in_.ConsumeIntegralInRange(0, 7) == 0) t.buffer.GuaranteedBaseOffsetAlignment = in_.ConsumeIntegral<uint32_t>();
        if (in_.ConsumeIntegralInRange(0, 63) == 0) set_raw(t.buffer.Flags, in_.ConsumeIntegral<int32_t>());
        t.desc = {in_.ConsumeIntegralInRange(0, 63) == 0 ? DML_TENSOR_TYPE_INVALID : DML_TENSOR_TYPE_BUFFER, &t.buffer};
        return t;
    }

    // Output of a reduction of `input` over `axes` (sizes 1 there), often valid.
    Tensor &reduced(const Tensor &input, const std::vector<uint32_t> &axes, bool index_output) {
        Tensor &t = tensor(&input);
        for (uint32_t a : axes) {
            if (a < t.rank && in_.ConsumeIntegralInRange(0, 7) != 0) t.sizes[a] = 1;
        }
        if (index_output) set_type(t, in_.ConsumeBool() ? DML_TENSOR_DATA_TYPE_UINT32 : DML_TENSOR_DATA_TYPE_INT64);
        refresh(t);
        return t;
    }

    // Recomputes TotalTensorSizeInBytes after sizes changed (packed strides).
    void refresh(Tensor &t) {
        t.buffer.Strides = nullptr;
        t.buffer.DimensionCount = t.rank;
        t.buffer.TotalTensorSizeInBytes = implied_bytes(t, nullptr);
    }

    static void set_type(Tensor &t, int32_t type) {
        t.type = type;
        set_raw(t.buffer.DataType, type);
    }

    // DMLCalcBufferTensorSize for the tensor's sizes (64 for a type that is no DML_TENSOR_DATA_TYPE).
    static uint64_t implied_bytes(const Tensor &t, const uint32_t *strides) {
        if (t.type < DML_TENSOR_DATA_TYPE_UNKNOWN || t.type > DML_TENSOR_DATA_TYPE_INT4) return 64;
        return DMLCalcBufferTensorSize((DML_TENSOR_DATA_TYPE)t.type, t.rank, t.sizes.data(), strides);
    }

    std::vector<uint32_t> axes(uint32_t rank) {
        std::vector<uint32_t> list(in_.ConsumeIntegralInRange<uint32_t>(0, 9));
        for (uint32_t &a : list) a = in_.ConsumeIntegralInRange(0, 15) == 0 ? in_.ConsumeIntegral<uint32_t>()
                                                                            : in_.ConsumeIntegralInRange<uint32_t>(0, rank);
        return list;
    }

    uint32_t axis(uint32_t rank) {
        return in_.ConsumeIntegralInRange(0, 15) == 0 ? in_.ConsumeIntegral<uint32_t>()
                                                      : in_.ConsumeIntegralInRange<uint32_t>(0, rank ? rank - 1 : 0);
    }

private:
    FuzzedDataProvider &in_;
    std::vector<std::unique_ptr<Tensor>> tensors_;
};

// The operator desc, its tensors in binding order, and storage for its arrays.
struct Desc {
    DML_OPERATOR_DESC op{};
    std::vector<Tensor *> inputs, outputs;
    std::vector<uint32_t> axes;
    std::vector<DML_TENSOR_DESC> pieces;
    DML_REDUCE_OPERATOR_DESC reduce{};
    DML_ARGMAX_OPERATOR_DESC arg{};
    DML_GATHER_OPERATOR_DESC gather{};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC scan{};
    DML_SPLIT_OPERATOR_DESC split{};
    DML_JOIN_OPERATOR_DESC join{};
};

void build(FuzzedDataProvider &in, Builder &b, Desc &d) {
    const int kind = in.ConsumeIntegralInRange(0, 7);
    Tensor &input = b.tensor();
    const uint32_t rank = input.rank;
    switch (kind) {
    case 0:
    case 1:
    case 2: {  // REDUCE, ARGMAX, ARGMIN
        d.axes = b.axes(rank);
        const int32_t function = in.ConsumeIntegralInRange(-1, 12);
        const bool index = kind != 0 || function == DML_REDUCE_FUNCTION_ARGMAX || function == DML_REDUCE_FUNCTION_ARGMIN;
        Tensor &output = b.reduced(input, d.axes, index);
        d.inputs = {&input};
        d.outputs = {&output};
        if (kind == 0) {
            d.reduce = {DML_REDUCE_FUNCTION_SUM, &input.desc, &output.desc, (UINT)d.axes.size(),
                        d.axes.empty() ? nullptr : d.axes.data()};
            set_raw(d.reduce.Function, function);
            d.op = {DML_OPERATOR_REDUCE, &d.reduce};
        } else {
            d.arg = {&input.desc, &output.desc, (UINT)d.axes.size(), d.axes.empty() ? nullptr : d.axes.data(),
                     DML_AXIS_DIRECTION_INCREASING};
            set_raw(d.arg.AxisDirection, in.ConsumeIntegralInRange(0, 2));
            d.op = {kind == 1 ? DML_OPERATOR_ARGMAX : DML_OPERATOR_ARGMIN, &d.arg};
        }
        break;
    }
    case 3: {  // GATHER
        Tensor &indices = b.tensor(&input);
        if (in.ConsumeBool()) Builder::set_type(indices, in.ConsumeBool() ? DML_TENSOR_DATA_TYPE_INT32 : DML_TENSOR_DATA_TYPE_INT64);
        Tensor &output = b.tensor(&input);
        d.inputs = {&input, &indices};
        d.outputs = {&output};
        d.gather = {&input.desc, &indices.desc, &output.desc, b.axis(rank), in.ConsumeIntegralInRange<uint32_t>(0, rank + 1)};
        d.op = {DML_OPERATOR_GATHER, &d.gather};
        break;
    }
    case 4:
    case 5: {  // CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT (same desc layout)
        Tensor &output = in.ConsumeBool() ? input : b.tensor(&input);
        d.inputs = {&input};
        d.outputs = {&output};
        d.scan = {&input.desc, &output.desc, b.axis(rank), DML_AXIS_DIRECTION_INCREASING,
                  (BOOL)in.ConsumeIntegralInRange(0, 2)};
        set_raw(d.scan.AxisDirection, in.ConsumeIntegralInRange(0, 2));
        d.op = {kind == 4 ? DML_OPERATOR_CUMULATIVE_SUMMATION : DML_OPERATOR_CUMULATIVE_PRODUCT, &d.scan};
        break;
    }
    default: {  // SPLIT, JOIN: pieces of the whole along an axis
        const uint32_t axis = b.axis(rank);
        uint32_t count = in.ConsumeIntegralInRange(0, 31) == 0 ? in.ConsumeIntegral<uint32_t>()
                                                               : in.ConsumeIntegralInRange<uint32_t>(0, 5);
        // A huge count points at one desc: it must be rejected before any other
        // is read, which hdml can tell only when it exceeds the slices along Axis.
        const uint32_t made = count < 8 ? count : 1;
        if (count >= 8 && axis < rank && count <= input.sizes[axis]) count = made;
        std::vector<Tensor *> pieces;
        for (uint32_t k = 0; k < made; ++k) {
            Tensor &piece = b.tensor(&input);
            if (axis < piece.rank && in.ConsumeBool()) piece.sizes[axis] = in.ConsumeIntegralInRange<uint32_t>(1, 4);
            b.refresh(piece);
            pieces.push_back(&piece);
            d.pieces.push_back(piece.desc);
        }
        const DML_TENSOR_DESC *pieces_at = d.pieces.empty() ? nullptr : d.pieces.data();
        if (kind == 6) {
            d.inputs = {&input};
            d.outputs = pieces;
            d.split = {&input.desc, count, pieces_at, axis};
            d.op = {DML_OPERATOR_SPLIT, &d.split};
        } else {
            d.inputs = pieces;
            d.outputs = {&input};
            d.join = {count, pieces_at, &input.desc, axis};
            d.op = {DML_OPERATOR_JOIN, &d.join};
        }
    }
    }
}

[[noreturn]] void invariant_broken(const char *what, HRESULT hr) {
    std::fprintf(stderr, "descriptor_fuzzer: %s (HRESULT 0x%08x, message: %s)\n", what, (unsigned)hr,
                 hdmlGetLastErrorMessage());
    std::abort();
}

void check_failure(HRESULT hr, const char *call) {
    if (hr != E_INVALIDARG && hr != E_OUTOFMEMORY) invariant_broken(call, hr);
    if (!*hdmlGetLastErrorMessage()) invariant_broken("a failure without a message", hr);
}

// Binds each tensor to its own heap buffer; `hostile` bindings must be rejected.
void execute(FuzzedDataProvider &in, hdml_operator *op, const Desc &d) {
    // Small buffers and little work: broadcast strides let a few bytes stand
    // for 2^32 elements, which would execute correctly, for minutes.
    uint64_t total = 0;
    for (const auto *list : {&d.inputs, &d.outputs}) {
        for (const Tensor *t : *list) {
            double elements = 1;
            for (uint32_t k = 0; k < t->rank; ++k) elements *= t->sizes[k];
            if (elements > kMaxExecutedElements || t->buffer.TotalTensorSizeInBytes > kMaxExecutedBytes) return;
            total += t->buffer.TotalTensorSizeInBytes;
        }
    }
    if (total > kMaxExecutedBytes) return;
    std::vector<std::unique_ptr<uint8_t[]>> storage;
    auto bind = [&](const std::vector<Tensor *> &tensors) {
        std::vector<HDML_BUFFER_BINDING> bindings;
        for (const Tensor *t : tensors) {
            const uint64_t bytes = t->buffer.TotalTensorSizeInBytes;
            storage.emplace_back(new uint8_t[bytes ? bytes : 1]);
            std::memset(storage.back().get(), in.ConsumeIntegral<uint8_t>(), bytes);
            bindings.push_back({storage.back().get(), 0, bytes});
        }
        return bindings;
    };
    std::vector<HDML_BUFFER_BINDING> inputs = bind(d.inputs), outputs = bind(d.outputs);
    const int mode = in.ConsumeIntegralInRange(0, 7);
    if (mode == 0 && !outputs.empty()) {  // an offset or size that no buffer has
        HDML_BUFFER_BINDING &b = outputs[in.ConsumeIntegralInRange<size_t>(0, outputs.size() - 1)];
        b.Offset = in.ConsumeBool() ? (UINT64_MAX & ~uint64_t(15)) - 16 * in.ConsumeIntegralInRange(0, 4) : uint64_t(1) << 63;
        b.SizeInBytes += in.ConsumeIntegralInRange(0, 64);
        const HRESULT hr = hdmlExecute(op, (uint32_t)inputs.size(), inputs.data(), (uint32_t)outputs.size(), outputs.data());
        if (hr != E_INVALIDARG) invariant_broken("an impossible binding was accepted", hr);
        return;
    }
    if (mode == 1 && !outputs.empty() && !inputs.empty()) {  // an output over an input
        outputs[0].Buffer = inputs[0].Buffer;
        outputs[0].SizeInBytes = std::min(outputs[0].SizeInBytes, inputs[0].SizeInBytes);
        const HRESULT hr = hdmlExecute(op, (uint32_t)inputs.size(), inputs.data(), (uint32_t)outputs.size(), outputs.data());
        if (FAILED(hr)) check_failure(hr, "hdmlExecute (overlap)");
        return;
    }
    const HRESULT hr = hdmlExecute(op, (uint32_t)inputs.size(), inputs.data(), (uint32_t)outputs.size(), outputs.data());
    if (hr != S_OK && hr != E_OUTOFMEMORY) invariant_broken("valid bindings failed", hr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FuzzedDataProvider in(data, size);
    Builder builder(in);
    Desc d;
    build(in, builder, d);
    hdml_operator *op = nullptr;
    const HRESULT hr = hdmlCreateOperator(fuzz_cpu_device(), &d.op, &op);
    if (FAILED(hr)) {
        check_failure(hr, "hdmlCreateOperator");
        if (op) invariant_broken("a failed creation returned an operator", hr);
        return 0;
    }
    execute(in, op, d);
    hdmlReleaseOperator(op);
    return 0;
}
