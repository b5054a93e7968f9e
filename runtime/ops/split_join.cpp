// DML_OPERATOR_SPLIT and DML_OPERATOR_JOIN: one tensor and its pieces along an
// axis. Validation per DirectML; execution is strided copies of each piece, the
// whole tensor's view offset along the axis (any data type: keyed by element
// size; 64-bit elements as pairs of 32-bit words where the device moves them
// so), on CPUs a block of the whole's rows at a time (x86: a large whole
// with non-temporal stores, runtime/stream_copy.h), and on CUDA pieces alike
// up to 16 per launch.
#include "runtime/checked.h"
#include "runtime/error.h"
#include "runtime/launch.h"
#include "runtime/operator.h"
#include "runtime/shape/copy.h"
#include "runtime/shape/limits.h"
#include "runtime/stream_copy.h"
#include "runtime/thread_pool.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace hdml {

namespace {

// What hdmlGetOperatorKernels reports for SPLIT/JOIN through the streaming copy.
constexpr const char *kStreamCopyName = "hdml_stream_copy";

// How a piece moves over some of its rows: as the copy kernel's elements of
// `unit` bytes (the tensor's elements, or their 32-bit words where the device
// moves 64-bit ones as pairs: split_elements), and as 32-bit words where its
// rows are whole words (8- and 16-bit pieces: widen_elements), taken when both
// addresses are word-aligned.
struct PieceMove {
    CopyShape elements;
    std::optional<CopyShape> words;
};

PieceMove plan_move(const std::vector<Dim> &dims, uint32_t esize, uint32_t unit, const DispatchThresholds &thresholds) {
    if (unit < esize) {
        return {plan_copy(split_elements(dims, esize / unit), copy_run_row(thresholds, unit)), std::nullopt};
    }
    PieceMove move{plan_copy(dims, copy_run_row(thresholds, esize)), std::nullopt};
    std::vector<Dim> words;
    if (esize < kWordBytes && widen_elements(dims, kWordBytes / esize, &words)) {
        move.words = plan_copy(words, copy_run_row(thresholds, kWordBytes));
    }
    return move;
}

// CPUs: the pieces move together, a block of the whole's rows per task, each
// task moving every piece's slice of its rows in turn. A piece at a time, every
// thread moved one slice of each row of the whole (JOIN of four [65536, 256]
// float32 pieces: 1 KiB runs 4 KiB apart), which the prefetchers follow poorly.
struct RowBlocks {
    uint32_t dim = 0;         // the whole's dim, outer to Axis, cut into blocks
    int64_t rows = 0;         // its indices per block
    int64_t count = 0;        // blocks; 0: the pieces move one at a time
    int64_t whole_step = 0;   // elements of the whole between blocks
    std::vector<int64_t> piece_steps;   // ... of each piece
    std::vector<PieceMove> full, last;  // each piece over a block, and over the last block
};

// The dim to cut: outer to Axis in the whole's memory (a block then holds a
// run of every piece's rows), the longest such.
std::optional<uint32_t> block_dim(const Tensor &whole, uint32_t axis) {
    std::optional<uint32_t> best;
    for (uint32_t d = 0; d < whole.rank; ++d) {
        if (d == axis || whole.sizes[d] < 2 || whole.strides[d] <= whole.strides[axis]) continue;
        if (!best || whole.sizes[d] > whole.sizes[*best]) best = d;
    }
    return best;
}

// Whether every piece has the first one's sizes and strides.
bool pieces_alike(const std::vector<Tensor> &pieces) {
    for (const Tensor &piece : pieces) {
        for (uint32_t d = 0; d < piece.rank; ++d) {
            if (piece.sizes[d] != pieces[0].sizes[d] || piece.strides[d] != pieces[0].strides[d]) return false;
        }
    }
    return true;
}

// CUDA SPLIT/JOIN of pieces alike: split_parts/copy_parts launches, each of up
// to kCopyPartsPerLaunch pieces written/read through one span of the address space.
struct PartsPlan {
    const KernelEntry *kernel = nullptr;       // of the copy kernel's elements; nullptr: a piece per launch
    const KernelEntry *word_kernel = nullptr;  // of 32-bit words, where the pieces move in words
    int64_t piece_step = 0;                    // elements of the whole between one piece and the next
};

// Elements from a piece's first to its last one, plus one, in the kernel's
// dims (the piece is the copy's output in a SPLIT, its input in a JOIN).
int64_t piece_footprint(const CopyShape &shape, bool split) {
    int64_t last = 0;
    for (const Dim *dim : {&shape.x, &shape.y, &shape.z}) {
        last += (dim->extent - 1) * (split ? dim->out_stride : dim->in_stride);
    }
    return last + 1;
}

// `whole` is split into (or joined from) `pieces` along `axis`.
class PiecesOperator : public hdml_operator {
public:
    HRESULT init(const Tensor &whole, const std::vector<Tensor> &pieces, uint32_t axis, bool split, const char *name) {
        split_ = split;
        if (split) {
            inputs = {whole};
            outputs = pieces;
        } else {
            inputs = pieces;
            outputs = {whole};
        }
        esize_ = element_size(whole.type);
        unit_ = esize_ == 8 && device.moves_64bit_in_words ? kWordBytes : esize_;
        HDML_RETURN_IF_FAILED(
            require_kernel(device, Family::copy, KernelParams{}.with(uint_dtype(unit_)), name, &kernel_));
        kernel_names = kernel_->name;
        uint64_t offset = 0;
        for (size_t k = 0; k < pieces.size(); ++k) {
            moves_.push_back(plan_move(piece_dims(whole, pieces[k]), esize_, unit_, device.thresholds));
            whole_offsets_.push_back(must_mul<int64_t>(offset, whole.strides[axis]));
            log_verbose(format("%s: piece %zu: kernel %s; %s%s", name, k, kernel_->name,
                               moves_.back().elements.describe().c_str(),
                               moves_.back().words ? "; in 32-bit words where aligned"
                               : unit_ < esize_    ? "; 64-bit elements as pairs of 32-bit words"
                                                   : ""));
            offset += pieces[k].sizes[axis];
        }
        if (!on_gpu(device)) plan_blocks(whole, pieces, axis, name);
        const int64_t min_pieces = device.thresholds.copy_parts_min_pieces;
        if (on_cuda(device) && min_pieces > 0 && (int64_t)pieces.size() >= std::max<int64_t>(2, min_pieces) &&
            pieces_alike(pieces)) {
            HDML_RETURN_IF_FAILED(plan_parts(name));
        }
        auto takes_words = [](const PieceMove &m) { return m.words.has_value(); };
        if (std::any_of(moves_.begin(), moves_.end(), takes_words) ||
            std::any_of(blocks_.full.begin(), blocks_.full.end(), takes_words) ||
            std::any_of(blocks_.last.begin(), blocks_.last.end(), takes_words)) {
            HDML_RETURN_IF_FAILED(require_kernel(device, Family::copy, KernelParams{}.with(uint_dtype(kWordBytes)),
                                                 name, &word_kernel_));
            kernel_names += std::string(" ") + word_kernel_->name;
        }
        if (!on_gpu(device)) plan_stream(whole, name);
        return S_OK;
    }

    HRESULT run(const void *const *in, void *const *out) override {
        if (parts_.kernel) {
            for (size_t first = 0; first < moves_.size(); first += kCopyPartsPerLaunch) {
                const size_t count = std::min(kCopyPartsPerLaunch, moves_.size() - first);
                if (std::optional<HRESULT> hr = move_parts(first, count, in, out)) {
                    HDML_RETURN_IF_FAILED(*hr);
                    continue;
                }
                for (size_t k = first; k < first + count; ++k) {
                    HDML_RETURN_IF_FAILED(move_piece(k, moves_[k], 0, 0, in, out));
                }
            }
            return S_OK;
        }
        if (blocks_.count == 0) {
            for (size_t k = 0; k < moves_.size(); ++k) HDML_RETURN_IF_FAILED(move_piece(k, moves_[k], 0, 0, in, out));
            return S_OK;
        }
        struct Job {
            PiecesOperator *op;
            const void *const *in;
            void *const *out;
            std::mutex mutex;
            HRESULT failure = S_OK;  // the first block's that failed, with its thread's message
            std::string message;
        } job{this, in, out, {}, S_OK, {}};
        halide_task_t task = [](void *, int block, uint8_t *closure) -> int {
            Job &j = *reinterpret_cast<Job *>(closure);
            const HRESULT hr = j.op->move_block(block, j.in, j.out);
            if (SUCCEEDED(hr)) return 0;
            std::lock_guard<std::mutex> lock(j.mutex);
            if (SUCCEEDED(j.failure)) j.failure = hr, j.message = last_error();
            return 1;
        };
        // The kernels' own parallel loops nest inside these tasks (on hdml's pool, or Halide's).
        halide_do_par_for(nullptr, task, 0, (int)blocks_.count, reinterpret_cast<uint8_t *>(&job));
        return FAILED(job.failure) ? fail(job.failure, job.message) : S_OK;
    }

private:
    // The piece's dims as the copy sees them, outermost first.
    std::vector<Dim> piece_dims(const Tensor &whole, const Tensor &piece) const {
        std::vector<Dim> dims(whole.rank);
        for (uint32_t d = 0; d < whole.rank; ++d) {
            dims[d].extent = piece.sizes[d];
            dims[d].in_stride = split_ ? whole.strides[d] : piece.strides[d];
            dims[d].out_stride = split_ ? piece.strides[d] : whole.strides[d];
        }
        return dims;
    }

    // copy_pieces_block_bytes, or copy_pieces_block_bytes_per_thread times
    // the pool's threads where that is more and the whole still makes a block
    // per thread: at 16 Xeon threads blocks of 1 MiB moved 16-256 MiB up to 1.8x
    // as fast as 256 KiB, but 4 MiB in 4 blocks 0.41-0.97x; at 2 threads 256 KiB held.
    int64_t block_bytes_for(const Tensor &whole) const {
        const int64_t block_bytes = device.thresholds.copy_pieces_block_bytes;
        const int64_t per_thread = device.thresholds.copy_pieces_block_bytes_per_thread;
        if (block_bytes <= 0 || per_thread <= 0) return block_bytes;  // (GPUs: -1, and no blocks)
        const int64_t threads = std::max(thread_pool_threads(), 1);
        int64_t grown = 0, whole_bytes = 0;  // the thresholds come from a file: saturate
        if (!checked_mul<int64_t>(per_thread, threads, &grown)) grown = INT64_MAX;
        if (!checked_mul<int64_t>((int64_t)whole.element_count(), esize_, &whole_bytes)) whole_bytes = INT64_MAX;
        return std::max(block_bytes, std::min(grown, whole_bytes / threads));
    }

    // copy_stream_min_bytes: a whole of at least that many bytes whose every
    // move takes the streaming copy goes through it (in the blocks, or in
    // tasks of a block's bytes where the pieces move one at a time), no kernel.
    void plan_stream(const Tensor &whole, const char *name) {
        const int64_t min_bytes = device.thresholds.copy_stream_min_bytes;
        int64_t whole_bytes = 0;
        if (min_bytes <= 0 || !checked_mul<int64_t>((int64_t)whole.element_count(), esize_, &whole_bytes) ||
            whole_bytes < min_bytes) {
            return;
        }
        auto takes = [&](const std::vector<PieceMove> &moves) {
            return std::all_of(moves.begin(), moves.end(),
                               [&](const PieceMove &m) { return stream_copy_takes(m.elements, unit_); });
        };
        if (!(blocks_.count ? takes(blocks_.full) && takes(blocks_.last) : takes(moves_))) return;
        stream_task_bytes_ = std::max<int64_t>(block_bytes_for(whole), kStreamMinRowBytes);
        kernel_names = kStreamCopyName;
        log_verbose(format("%s: %lld bytes, at least copy_stream_min_bytes %lld: %s (non-temporal stores)", name,
                           (long long)whole_bytes, (long long)min_bytes, kStreamCopyName));
    }

    // Blocks of about copy_pieces_block_bytes of the whole, and at least 1/16
    // of that per piece, so each kernel call moves enough to pay for itself
    // however many pieces there are; on many threads larger, up to a block
    // per thread (block_bytes_for).
    void plan_blocks(const Tensor &whole, const std::vector<Tensor> &pieces, uint32_t axis, const char *name) {
        const std::optional<uint32_t> dim = block_dim(whole, axis);
        const int64_t block_bytes = block_bytes_for(whole);
        if (block_bytes <= 0 || pieces.size() < 2 || !dim) return;
        const int64_t extent = whole.sizes[*dim];
        const int64_t bytes_per_index = (int64_t)(whole.element_count() / (uint64_t)extent) * esize_;
        int64_t per_pieces = 0;  // the threshold comes from a file: any value >= 0, so saturate
        if (!checked_mul<int64_t>(block_bytes / 16, (int64_t)pieces.size(), &per_pieces)) per_pieces = INT64_MAX;
        const int64_t wanted = std::max(block_bytes, per_pieces);
        int64_t rows = std::clamp<int64_t>(wanted / bytes_per_index + (wanted % bytes_per_index != 0), 1, extent);
        rows = std::max<int64_t>(rows, (extent + (1 << 20) - 1) >> 20);  // a parallel loop of at most 2^20 tasks
        const int64_t count = (extent + rows - 1) / rows;
        if (count < 2) return;
        blocks_ = RowBlocks{*dim, rows, count, must_mul<int64_t>(rows, whole.strides[*dim]), {}, {}, {}};
        for (const Tensor &piece : pieces) {
            std::vector<Dim> dims = piece_dims(whole, piece);
            blocks_.piece_steps.push_back(must_mul<int64_t>(rows, piece.strides[*dim]));
            dims[*dim].extent = rows;
            blocks_.full.push_back(plan_move(dims, esize_, unit_, device.thresholds));
            dims[*dim].extent = extent - (count - 1) * rows;
            blocks_.last.push_back(plan_move(dims, esize_, unit_, device.thresholds));
        }
        log_verbose(format("%s: the pieces move together in %lld blocks of %lld indices of dim %u", name,
                           (long long)count, (long long)rows, *dim));
    }

    HRESULT plan_parts(const char *name) {
        const Family family = split_ ? Family::split_parts : Family::copy_parts;
        const KernelParams elements = KernelParams{}.with(uint_dtype(unit_));
        HDML_RETURN_IF_FAILED(require_kernel(device, family, elements, name, &parts_.kernel));
        kernel_names += std::string(" ") + parts_.kernel->name;
        if (moves_[0].words) {
            const KernelParams words = KernelParams{}.with(uint_dtype(kWordBytes));
            HDML_RETURN_IF_FAILED(require_kernel(device, family, words, name, &parts_.word_kernel));
            if (parts_.word_kernel != parts_.kernel) kernel_names += std::string(" ") + parts_.word_kernel->name;
        }
        parts_.piece_step = whole_offsets_[1];
        log_verbose(format("%s: the pieces are alike: up to %zu per launch of %s where they span at most "
                           "2^31 - 1 elements", name, kCopyPartsPerLaunch, parts_.kernel->name));
        return S_OK;
    }

    // Pieces [first, first + count) in one copy_parts (split_parts) launch per
    // offset of their loops; nullopt where they do not fit one span of the
    // address space that 32-bit offsets reach (they then move a piece at a time).
    std::optional<HRESULT> move_parts(size_t first, size_t count, const void *const *in, void *const *out) const {
        const PieceMove &move = moves_[0];
        auto *whole = static_cast<uint8_t *>(split_ ? const_cast<void *>(in[0]) : out[0]) +
                      must_mul<int64_t>(whole_offsets_[first], esize_);
        const int64_t step_bytes = must_mul<int64_t>(parts_.piece_step, esize_);
        // The pieces are separate allocations: their addresses compare as integers.
        auto address = [&](size_t k) { return reinterpret_cast<uintptr_t>(split_ ? out[k] : in[k]); };
        uintptr_t span = address(first);
        bool in_words = move.words && parts_.word_kernel && step_bytes % kWordBytes == 0;
        for (size_t k = first; k < first + count; ++k) {
            span = std::min(span, address(k));
            in_words = in_words && (address(k) | reinterpret_cast<uintptr_t>(whole)) % kWordBytes == 0;
        }
        const uint32_t unit = in_words ? kWordBytes : unit_;
        const CopyShape &shape = in_words ? *move.words : move.elements;
        const int64_t footprint = piece_footprint(shape, split_);
        if (footprint > kMaxKernelExtent) return std::nullopt;
        std::array<int32_t, kCopyPartsPerLaunch> offsets{};
        int64_t span_extent = 0;
        for (size_t k = first; k < first + count; ++k) {
            const uint64_t bytes = address(k) - span;
            if (bytes % unit != 0 || bytes / unit > uint64_t(kMaxKernelExtent - footprint)) return std::nullopt;
            offsets[k - first] = (int32_t)(bytes / unit);
            span_extent = std::max(span_extent, (int64_t)(bytes / unit) + footprint);
        }
        for (size_t k = count; k < kCopyPartsPerLaunch; ++k) offsets[k] = offsets[0];  // unread: k < count
        if (step_bytes / unit > kMaxKernelExtent) return std::nullopt;
        const KernelEntry *kernel = in_words ? parts_.word_kernel : parts_.kernel;
        return run_parts(device, kernel, shape, reinterpret_cast<uint8_t *>(span), (int32_t)span_extent, offsets,
                         (int32_t)count, (int32_t)(step_bytes / unit), whole, unit);
    }

    HRESULT move_block(int64_t block, const void *const *in, void *const *out) {
        const std::vector<PieceMove> &moves = block + 1 == blocks_.count ? blocks_.last : blocks_.full;
        for (size_t k = 0; k < moves.size(); ++k) {
            HDML_RETURN_IF_FAILED(
                move_piece(k, moves[k], block * blocks_.whole_step, block * blocks_.piece_steps[k], in, out));
        }
        return S_OK;
    }

    // Piece k's `move`, starting `whole_at` and `piece_at` elements into the
    // whole's and the piece's views of it.
    HRESULT move_piece(size_t k, const PieceMove &move, int64_t whole_at, int64_t piece_at, const void *const *in,
                       void *const *out) const {
        const int64_t whole_shift = must_mul<int64_t>(whole_offsets_[k] + whole_at, esize_);
        const int64_t piece_shift = must_mul<int64_t>(piece_at, esize_);
        const auto *src = static_cast<const uint8_t *>(split_ ? in[0] : in[k]) + (split_ ? whole_shift : piece_shift);
        auto *dst = static_cast<uint8_t *>(split_ ? out[k] : out[0]) + (split_ ? piece_shift : whole_shift);
        if (stream_task_bytes_ > 0) {  // in a block's task already, or in tasks of its own
            stream_copy(move.elements, src, dst, unit_, stream_task_bytes_, blocks_.count == 0);
            return S_OK;
        }
        if (move.words && aligned_to(kWordBytes, src, dst)) {
            return run_copy(device, word_kernel_, *move.words, src, dst, kWordBytes);
        }
        return run_copy(device, kernel_, move.elements, src, dst, unit_);
    }

    bool split_ = true;
    uint32_t esize_ = 0;
    uint32_t unit_ = 0;  // bytes of kernel_'s elements: esize_, or a word of a 64-bit element's pair
    const KernelEntry *kernel_ = nullptr;
    const KernelEntry *word_kernel_ = nullptr;  // for moves in words
    std::vector<PieceMove> moves_;              // each piece whole
    std::vector<int64_t> whole_offsets_;        // element offset of each piece inside the whole tensor
    RowBlocks blocks_;
    PartsPlan parts_;
    int64_t stream_task_bytes_ = 0;  // > 0: every move goes through stream_copy
};

// The rules SPLIT and JOIN share, with the field names of each desc.
HRESULT validate_pieces(const Tensor &whole, const std::vector<Tensor> &pieces, uint32_t axis, const char *name,
                        const char *count_field) {
    HDML_RETURN_IF_FAILED(require_type_in(whole, kDataMovementTypes, name));
    uint64_t total = 0;
    for (const Tensor &piece : pieces) {
        HDML_RETURN_IF_FAILED(require_same_type(whole, piece));
        HDML_RETURN_IF_FAILED(require_same_rank(whole, piece));
        for (uint32_t d = 0; d < whole.rank; ++d) {
            if (d != axis && piece.sizes[d] != whole.sizes[d]) {
                return invalid_arg(format("%s: tensor '%s' has Sizes[%u] = %u but tensor '%s' has %u; sizes must match "
                                          "except along Axis %u.",
                                          name, piece.name.c_str(), d, piece.sizes[d], whole.name.c_str(),
                                          whole.sizes[d], axis));
            }
        }
        total += piece.sizes[axis];
    }
    if (total != whole.sizes[axis]) {
        return invalid_arg(format("%s: the %s tensors' sizes along Axis %u sum to %llu, but tensor '%s' has Sizes[%u] "
                                  "= %u; they must be equal.",
                                  name, count_field, axis, (unsigned long long)total, whole.name.c_str(), axis,
                                  whole.sizes[axis]));
    }
    return S_OK;
}

// Reads the pieces' descs once `whole` is read: each piece holds at least one
// slice along Axis, so a count beyond the whole's size is rejected before any
// desc past the first is read or anything is allocated for them.
HRESULT read_pieces(const DML_TENSOR_DESC *descs, uint32_t count, const Tensor &whole, uint32_t axis,
                    const char *field, const char *count_field, const char *name, std::vector<Tensor> *pieces) {
    if (axis >= whole.rank) {
        return invalid_arg(format("%s: Axis %u is out of range; it must be less than the DimensionCount %u of tensor "
                                  "'%s'.",
                                  name, axis, whole.rank, whole.name.c_str()));
    }
    if (count == 0) return invalid_arg(format("%s: %s is 0; it must be greater than 0.", name, count_field));
    if (count > whole.sizes[axis]) {
        return invalid_arg(format("%s: %s is %u, more than the %u slices of tensor '%s' along Axis %u; each tensor "
                                  "of %s holds at least one.",
                                  name, count_field, count, whole.sizes[axis], whole.name.c_str(), axis, field));
    }
    if (!descs) return invalid_arg(format("%s: %s is null but %s is %u.", name, field, count_field, count));
    pieces->resize(count);
    for (uint32_t k = 0; k < count; ++k) {
        HDML_RETURN_IF_FAILED(read_tensor(&descs[k], format("%s[%u]", field, k), &(*pieces)[k]));
    }
    return S_OK;
}

}  // namespace

HRESULT create_split_operator(const hdml_device &device, const void *raw_desc, std::unique_ptr<hdml_operator> *result) {
    const auto &desc = *static_cast<const DML_SPLIT_OPERATOR_DESC *>(raw_desc);
    const char *name = "DML_OPERATOR_SPLIT";
    Tensor whole;
    std::vector<Tensor> pieces;
    HDML_RETURN_IF_FAILED(read_tensor(desc.InputTensor, "InputTensor", &whole));
    HDML_RETURN_IF_FAILED(
        read_pieces(desc.OutputTensors, desc.OutputCount, whole, desc.Axis, "OutputTensors", "OutputCount", name, &pieces));
    HDML_RETURN_IF_FAILED(validate_pieces(whole, pieces, desc.Axis, name, "OutputTensors"));
    auto op = make_operator<PiecesOperator>(device);
    HDML_RETURN_IF_FAILED(op->init(whole, pieces, desc.Axis, true, name));
    *result = std::move(op);
    return S_OK;
}

HRESULT create_join_operator(const hdml_device &device, const void *raw_desc, std::unique_ptr<hdml_operator> *result) {
    const auto &desc = *static_cast<const DML_JOIN_OPERATOR_DESC *>(raw_desc);
    const char *name = "DML_OPERATOR_JOIN";
    Tensor whole;
    std::vector<Tensor> pieces;
    HDML_RETURN_IF_FAILED(read_tensor(desc.OutputTensor, "OutputTensor", &whole));
    HDML_RETURN_IF_FAILED(
        read_pieces(desc.InputTensors, desc.InputCount, whole, desc.Axis, "InputTensors", "InputCount", name, &pieces));
    HDML_RETURN_IF_FAILED(validate_pieces(whole, pieces, desc.Axis, name, "InputTensors"));
    auto op = make_operator<PiecesOperator>(device);
    HDML_RETURN_IF_FAILED(op->init(whole, pieces, desc.Axis, false, name));
    *result = std::move(op);
    return S_OK;
}

}  // namespace hdml
