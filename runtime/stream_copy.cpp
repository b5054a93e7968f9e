#include "runtime/stream_copy.h"

#include "HalideRuntime.h"

#include <algorithm>
#include <cstring>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define HDML_STREAM_COPY 1
#else
#define HDML_STREAM_COPY 0
#endif

namespace hdml {

namespace {

constexpr int64_t kLineBytes = 64;

// One row: memcpy up to the output's next line, whole lines through
// non-temporal stores (SSE2, every x86-64 core has it), memcpy the rest
// (all of it through memcpy where the build has no streaming copy).
void stream_row(uint8_t *out, const uint8_t *in, int64_t bytes) {
#if HDML_STREAM_COPY
    const int64_t to_line = (int64_t)((kLineBytes - reinterpret_cast<uintptr_t>(out) % kLineBytes) % kLineBytes);
    const int64_t head = std::min(bytes, to_line);
    std::memcpy(out, in, (size_t)head);
    out += head, in += head, bytes -= head;
    for (; bytes >= kLineBytes; bytes -= kLineBytes, out += kLineBytes, in += kLineBytes) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in + 16));
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in + 32));
        const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in + 48));
        _mm_stream_si128(reinterpret_cast<__m128i *>(out), a);
        _mm_stream_si128(reinterpret_cast<__m128i *>(out + 16), b);
        _mm_stream_si128(reinterpret_cast<__m128i *>(out + 32), c);
        _mm_stream_si128(reinterpret_cast<__m128i *>(out + 48), d);
    }
#endif
    std::memcpy(out, in, (size_t)bytes);
}

// The rows of a shape: every index of its loops, z and y (outermost first).
struct Rows {
    std::vector<Dim> dims;
    int64_t count = 1;
    int64_t row_bytes = 0;
    uint32_t element_size = 0;
    const uint8_t *input = nullptr;
    uint8_t *output = nullptr;
    int64_t per_task = 1;

    // Rows [first, end), then a fence: the stores are weakly ordered, and the
    // pool's completion must publish them.
    void copy(int64_t first, int64_t end) const {
        std::vector<int64_t> index(dims.size());
        Offsets at;
        int64_t rest = first;
        for (size_t d = dims.size(); d-- > 0;) {
            index[d] = rest % dims[d].extent;
            rest /= dims[d].extent;
            at.in += index[d] * dims[d].in_stride, at.out += index[d] * dims[d].out_stride;
        }
        for (int64_t row = first; row < end; ++row) {
            stream_row(output + at.out * element_size, input + at.in * element_size, row_bytes);
            next_offsets(dims, &index, &at);
        }
#if HDML_STREAM_COPY
        _mm_sfence();
#endif
    }
};

}  // namespace

bool stream_copy_available() { return HDML_STREAM_COPY != 0; }

bool stream_copy_takes(const CopyShape &shape, uint32_t element_size) {
    return stream_copy_available() && shape.x.in_stride == 1 && shape.x.out_stride == 1 &&
           shape.x.extent * (int64_t)element_size >= kStreamMinRowBytes;
}

void stream_copy(const CopyShape &shape, const uint8_t *input, uint8_t *output, uint32_t element_size,
                 int64_t task_bytes, bool parallel) {
    Rows rows;
    rows.dims = shape.loops;
    for (const Dim *dim : {&shape.z, &shape.y}) {
        if (dim->extent > 1) rows.dims.push_back(*dim);
    }
    for (const Dim &dim : rows.dims) rows.count *= dim.extent;  // <= the copy's elements
    rows.row_bytes = shape.x.extent * element_size;
    rows.element_size = element_size;
    rows.input = input;
    rows.output = output;
    if (!parallel || rows.count == 1) {
        rows.copy(0, rows.count);
        return;
    }
    // At most 2^20 tasks (the pool's loop takes an int).
    rows.per_task = std::max<int64_t>({1, task_bytes / rows.row_bytes, (rows.count + (1 << 20) - 1) >> 20});
    const int tasks = (int)((rows.count + rows.per_task - 1) / rows.per_task);
    halide_task_t task = [](void *, int t, uint8_t *closure) -> int {
        const Rows &r = *reinterpret_cast<const Rows *>(closure);
        r.copy(t * r.per_task, std::min(r.count, (t + 1) * r.per_task));
        return 0;
    };
    halide_do_par_for(nullptr, task, 0, tasks, reinterpret_cast<uint8_t *>(&rows));
}

}  // namespace hdml
