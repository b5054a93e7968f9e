// DML_OPERATOR_SPLIT and DML_OPERATOR_JOIN: the Split page's examples and the
// DxDispatch join model exactly, a randomised round trip against a naive
// reference over ranks 1-8, axes, every data type, uneven pieces and strides,
// and one test per validation rule.
#include "catch.hpp"
#include "dispatch_overlay.h"
#include "runtime/shape/copy.h"
#include "test_tensor.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>
#ifdef _WIN32
#include <io.h>
#define dup _dup
#define dup2 _dup2
#define fileno _fileno
#else
#include <unistd.h>
#endif

using namespace hdml_test;

namespace {

constexpr DML_TENSOR_DATA_TYPE F32 = DML_TENSOR_DATA_TYPE_FLOAT32;
const DML_TENSOR_DATA_TYPE kDataTypes[] = {
    DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT64,
    DML_TENSOR_DATA_TYPE_INT32,   DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_UINT64,
    DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_UINT8};

std::vector<float> floats(const TestTensor &t) {
    std::vector<float> v;
    t.for_each_index([&](const std::vector<uint32_t> &i) { v.push_back((float)t.float_at(t.offset(i))); });
    return v;
}

// Every element of `piece` equals the whole's element at the piece's offset
// along `axis`; padding bytes of the written tensor stay untouched.
// Each comparison is plain C++; only a mismatch builds a message and fails
// (a message per element made up most of this suite's time under qemu).
void check_piece(const TestTensor &whole, const TestTensor &piece, uint32_t axis, uint32_t offset,
                 const std::string &label) {
    std::vector<uint32_t> w(piece.sizes.size());
    piece.for_each_index([&](const std::vector<uint32_t> &i) {
        w = i;
        w[axis] += offset;
        const uint64_t got = piece.bits_at(piece.offset(i)), expected = whole.bits_at(whole.offset(w));
        if (got != expected) FAIL(label << " at " << shape_string(i) << ": bits " << got << ", expected " << expected);
    });
}

void check_padding_untouched(const TestTensor &written, const TestTensor &before, const std::string &label) {
    std::vector<bool> element(written.storage.size(), false);
    const uint32_t bytes = bytes_of(written.type);
    written.for_each_index([&](const std::vector<uint32_t> &i) {
        for (uint32_t b = 0; b < bytes; ++b) element[written.offset(i) * bytes + b] = true;
    });
    for (size_t b = 0; b < element.size(); ++b) {
        if (!element[b] && written.storage[b] != before.storage[b]) FAIL(label << ": padding byte " << b << " was written");
    }
}

// What `fn` writes to stderr (file descriptor 2, where HDML_VERBOSE logs).
template <typename Fn>
std::string stderr_of(Fn fn) {
    const std::string path = write_temp("stderr.txt", "");
    std::fflush(stderr);
    const int saved = dup(fileno(stderr));
    FILE *capture = std::fopen(path.c_str(), "w");
    dup2(fileno(capture), fileno(stderr));
    fn();
    std::fflush(stderr);
    dup2(saved, fileno(stderr));
    std::fclose(capture);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<DML_TENSOR_DESC> descs(std::vector<TestTensor> &tensors) {
    std::vector<DML_TENSOR_DESC> d;
    for (auto &t : tensors) d.push_back(t.desc);
    return d;
}

std::vector<HDML_BUFFER_BINDING> bindings(std::vector<TestTensor> &tensors) {
    std::vector<HDML_BUFFER_BINDING> b;
    for (auto &t : tensors) b.push_back(t.binding());
    return b;
}

}  // namespace

TEST_CASE("SPLIT seed examples", "[split][seed]") {
    TestTensor in(F32, {1, 1, 6, 2});
    for (int k = 0; k < 12; ++k) in.set_float(k, k + 1);
    {
        std::vector<TestTensor> out = {TestTensor(F32, {1, 1, 2, 2}), TestTensor(F32, {1, 1, 1, 2}),
                                       TestTensor(F32, {1, 1, 3, 2})};
        auto d = descs(out);
        DML_SPLIT_OPERATOR_DESC desc{&in.desc, 3, d.data(), 2};
        Runner runner;
        REQUIRE(runner.create(DML_OPERATOR_SPLIT, &desc) == S_OK);
        REQUIRE(runner.execute({in.binding()}, bindings(out)) == S_OK);
        CHECK(floats(out[0]) == std::vector<float>{1, 2, 3, 4});
        CHECK(floats(out[1]) == std::vector<float>{5, 6});
        CHECK(floats(out[2]) == std::vector<float>{7, 8, 9, 10, 11, 12});
    }
    {
        std::vector<TestTensor> out = {TestTensor(F32, {1, 1, 6, 1}), TestTensor(F32, {1, 1, 6, 1})};
        auto d = descs(out);
        DML_SPLIT_OPERATOR_DESC desc{&in.desc, 2, d.data(), 3};
        Runner runner;
        REQUIRE(runner.create(DML_OPERATOR_SPLIT, &desc) == S_OK);
        REQUIRE(runner.execute({in.binding()}, bindings(out)) == S_OK);
        CHECK(floats(out[0]) == std::vector<float>{1, 3, 5, 7, 9, 11});
        CHECK(floats(out[1]) == std::vector<float>{2, 4, 6, 8, 10, 12});
    }
}

TEST_CASE("JOIN: DxDispatch's dml_join.json model (sub-range bindings)", "[join][seed]") {
    // A = 1..10, B = 100, 115, 130; InputTensors {3}, {2}, {5} bound to A[0..3), B, A[4..9).
    std::vector<float> a(10), b = {100, 115, 130}, out_values(10, 0);
    for (int k = 0; k < 10; ++k) a[k] = (float)(k + 1);
    std::vector<TestTensor> in = {TestTensor(F32, {3}), TestTensor(F32, {2}), TestTensor(F32, {5})};
    TestTensor out(F32, {10});
    auto d = descs(in);
    DML_JOIN_OPERATOR_DESC desc{3, d.data(), &out.desc, 0};
    Runner runner;
    REQUIRE(runner.create(DML_OPERATOR_JOIN, &desc) == S_OK);
    std::vector<HDML_BUFFER_BINDING> inputs = {{a.data(), 0, 12}, {b.data(), 0, 12}, {a.data(), 16, 24}};
    REQUIRE(runner.execute(inputs, {out.binding()}) == S_OK);
    CHECK(floats(out) == std::vector<float>{1, 2, 3, 100, 115, 5, 6, 7, 8, 9});
}

namespace {

// SPLITs `whole` along `axis` into pieces of `lengths` (strides from
// `strides_of`), checks them and the untouched padding, then JOINs them into a
// fresh tensor and checks that.
// `kernels`, where given: what both operators must report.
template <typename StridesOf>
void check_round_trip(TestTensor &whole, uint32_t axis, const std::vector<uint32_t> &lengths, StridesOf strides_of,
                      std::mt19937 &rng, const std::string &label, const char *kernels = nullptr) {
    INFO(label);
    fill_random_bits(whole, rng);
    std::vector<TestTensor> pieces;
    for (uint32_t len : lengths) {
        std::vector<uint32_t> s = whole.sizes;
        s[axis] = len;
        pieces.emplace_back(whole.type, s, strides_of(s));
    }
    auto d = descs(pieces);
    // SPLIT: whole -> pieces.
    DML_SPLIT_OPERATOR_DESC split{&whole.desc, (UINT)pieces.size(), d.data(), axis};
    Runner splitter;
    REQUIRE(splitter.create(DML_OPERATOR_SPLIT, &split) == S_OK);
    if (kernels) CHECK(std::string(hdmlGetOperatorKernels(splitter.op)) == kernels);
    const std::vector<TestTensor> before = pieces;
    REQUIRE(splitter.execute({whole.binding()}, bindings(pieces)) == S_OK);
    uint32_t offset = 0;
    for (size_t k = 0; k < pieces.size(); ++k) {
        check_piece(whole, pieces[k], axis, offset, label + " split piece " + std::to_string(k));
        check_padding_untouched(pieces[k], before[k], label);
        offset += lengths[k];
    }
    // JOIN: pieces -> a fresh whole with other strides.
    TestTensor joined(whole.type, whole.sizes, strides_of(whole.sizes));
    const TestTensor joined_before = joined;
    DML_JOIN_OPERATOR_DESC join{(UINT)pieces.size(), d.data(), &joined.desc, axis};
    Runner joiner;
    REQUIRE(joiner.create(DML_OPERATOR_JOIN, &join) == S_OK);
    if (kernels) CHECK(std::string(hdmlGetOperatorKernels(joiner.op)) == kernels);
    REQUIRE(joiner.execute(bindings(pieces), {joined.binding()}) == S_OK);
    offset = 0;
    for (size_t k = 0; k < pieces.size(); ++k) {
        check_piece(joined, pieces[k], axis, offset, label + " join piece " + std::to_string(k));
        offset += lengths[k];
    }
    check_padding_untouched(joined, joined_before, label);
}

// check_round_trip of a whole of `sizes` cut along `axis` into uneven pieces,
// all with random strides.
// Random piece lengths, each at least 1, summing to `total`.
std::vector<uint32_t> random_lengths(uint32_t total, std::mt19937 &rng) {
    std::vector<uint32_t> lengths;
    for (uint32_t left = total; left > 0;) {
        const uint32_t len = 1 + rng() % left;
        lengths.push_back(len);
        left -= len;
    }
    return lengths;
}

// Packed strides for `sizes` but `row_padding` elements after each innermost row.
std::vector<uint32_t> padded_rows(const std::vector<uint32_t> &sizes, uint32_t row_padding) {
    std::vector<uint32_t> strides(sizes.size());
    uint32_t stride = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
        strides[d] = stride;
        stride *= sizes[d] + (d + 1 == sizes.size() ? row_padding : 0);
    }
    return strides;
}

// A whole of `sizes` in rows padded by `row_padding` elements (its pieces
// too), cut along `axis` into pieces of `lengths`.
struct PaddedCase {
    std::vector<uint32_t> sizes;
    uint32_t axis;
    std::vector<uint32_t> lengths;
    uint32_t row_padding;
};

void check_padded_case(DML_TENSOR_DATA_TYPE type, const PaddedCase &c, std::mt19937 &rng, const std::string &note = "",
                       const char *kernels = nullptr) {
    auto strides_of = [&](const std::vector<uint32_t> &s) { return padded_rows(s, c.row_padding); };
    TestTensor whole(type, c.sizes, strides_of(c.sizes));
    const std::string label = std::string(short_name(type)) + " sizes " + shape_string(c.sizes) + " axis " +
                              std::to_string(c.axis) + " pieces " + shape_string(c.lengths) + " row padding " +
                              std::to_string(c.row_padding) + note;
    check_round_trip(whole, c.axis, c.lengths, strides_of, rng, label, kernels);
}

void check_random_round_trip(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t> &sizes, uint32_t axis,
                             std::mt19937 &rng) {
    const std::vector<uint32_t> lengths = random_lengths(sizes[axis], rng);
    TestTensor whole(type, sizes, random_strides(sizes, rng, false));
    const std::string label = std::string(short_name(type)) + " sizes " + shape_string(sizes) + " axis " +
                              std::to_string(axis) + " pieces " + shape_string(lengths) + " (seed " +
                              std::to_string(test_seed()) + ")";
    auto strides_of = [&](const std::vector<uint32_t> &s) { return random_strides(s, rng, false); };
    check_round_trip(whole, axis, lengths, strides_of, rng, label);
}

}  // namespace

TEST_CASE("SPLIT then JOIN randomised against the reference: ranks 1-8, every data type", "[split][join][random]") {
    std::mt19937 rng(test_seed());
    static const uint32_t primes[] = {1, 2, 3, 5, 7};
    for (DML_TENSOR_DATA_TYPE type : kDataTypes) {
        for (uint32_t n = 1; n <= 8; ++n) {
            for (int c = 0; c < (n <= 3 ? 8 : 3); ++c) {
                std::vector<uint32_t> sizes(n);
                for (auto &s : sizes) s = primes[rng() % (n <= 3 ? 5 : 3)];
                const uint32_t axis = rng() % n;
                if (rng() % 2) sizes[axis] += 40 + rng() % 100;  // long axis: vector bodies and tails
                check_random_round_trip(type, sizes, axis, rng);
            }
        }
    }
}

// 64-bit elements move with the uint64 copy kernel, or as pairs of 32-bit
// words with the uint32 one on devices that take them so (D3D12; the
// `.word_pairs` variants): the kernel reported, then a round trip through it.
TEST_CASE("SPLIT then JOIN of 64-bit elements: whole, or as pairs of 32-bit words", "[split][join][word_pairs]") {
    std::mt19937 rng(test_seed());
    const bool pairs = test_moves_64bit_in_words();
    for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_INT64,
                                      DML_TENSOR_DATA_TYPE_UINT64}) {
        for (uint32_t axis : {0u, 2u}) {
            const std::vector<uint32_t> sizes = {5, 3, 7};
            const std::vector<uint32_t> lengths = {axis == 0 ? 2u : 4u, 3u};
            TestTensor whole(type, sizes, random_strides(sizes, rng, false));
            std::vector<TestTensor> pieces;
            for (uint32_t length : lengths) {
                std::vector<uint32_t> piece_sizes = sizes;
                piece_sizes[axis] = length;
                pieces.emplace_back(type, piece_sizes);
            }
            auto d = descs(pieces);
            DML_SPLIT_OPERATOR_DESC split{&whole.desc, 2, d.data(), axis};
            Runner runner;
            REQUIRE(runner.create(DML_OPERATOR_SPLIT, &split) == S_OK);
            const std::string kernels = hdmlGetOperatorKernels(runner.op);
            INFO(short_name(type) << " axis " << axis << ": kernels " << kernels);
            CHECK(kernels.find(pairs ? "hdml_copy_uint32_" : "hdml_copy_uint64_") == 0);
            CHECK(kernels.find(' ') == std::string::npos);  // that kernel only
            const std::string label = std::string(short_name(type)) + " axis " + std::to_string(axis) +
                                      (pairs ? " in word pairs" : " whole") + " (seed " + std::to_string(test_seed()) +
                                      ")";
            auto strides_of = [&](const std::vector<uint32_t> &s) { return random_strides(s, rng, false); };
            check_round_trip(whole, axis, lengths, strides_of, rng, label);
        }
    }
}

// Pieces alike (sizes and strides) JOIN and SPLIT on CUDA up to 16 per
// copy_parts / split_parts launch, read or written through one span of device
// memory (runtime/ops/split_join.cpp): groups of 16 and a shorter last one,
// each piece in its own buffer, or all in one buffer in reverse order one
// element apart (16-bit pieces then move in elements, not words; the element
// between two pieces is never written); uneven pieces move a piece per launch.
TEST_CASE("JOIN and SPLIT of pieces alike, several per launch on CUDA, every data type", "[split][join][parts]") {
    std::mt19937 rng(test_seed());
    for (DML_TENSOR_DATA_TYPE type : kDataTypes) {
        for (uint32_t count : {2u, 3u, 16u, 17u, 35u}) {
            for (bool one_buffer : {false, true}) {
                std::vector<uint32_t> sizes = {uint32_t(1 + rng() % 4), uint32_t(1 + rng() % 5),
                                               uint32_t(1 + rng() % 9)};
                const uint32_t axis = rng() % 3;
                const std::vector<uint32_t> piece_strides = random_strides(sizes, rng, false);
                std::vector<TestTensor> pieces(count, TestTensor(type, sizes, piece_strides));
                for (TestTensor &piece : pieces) {
                    fill_random_bits(piece, rng);
                    piece.buffer_desc.GuaranteedBaseOffsetAlignment = bytes_of(type);  // offsets of an element
                }
                std::vector<uint32_t> whole_sizes = sizes;
                whole_sizes[axis] *= count;
                TestTensor whole(type, whole_sizes, random_strides(whole_sizes, rng, false));
                const TestTensor whole_before = whole;
                const std::string label = std::string(short_name(type)) + " " + std::to_string(count) + " pieces " +
                                          shape_string(sizes) + " axis " + std::to_string(axis) +
                                          (one_buffer ? " in one buffer" : "") + " (seed " +
                                          std::to_string(test_seed()) + ")";
                INFO(label);
                // One buffer: piece k at (count - 1 - k) steps of its bytes plus one element.
                const size_t step = pieces[0].storage.size() + bytes_of(type);
                auto at = [&](uint32_t k) { return (count - 1 - k) * step; };
                std::vector<uint8_t> shared(step * count, 0xA5);
                auto piece_bindings = [&]() {
                    std::vector<HDML_BUFFER_BINDING> b = bindings(pieces);
                    for (uint32_t k = 0; one_buffer && k < count; ++k) {
                        b[k] = {shared.data(), at(k), pieces[k].storage.size()};
                    }
                    return b;
                };
                auto d = descs(pieces);
                // JOIN: the pieces into the whole.
                for (uint32_t k = 0; one_buffer && k < count; ++k) {
                    std::copy(pieces[k].storage.begin(), pieces[k].storage.end(), shared.begin() + at(k));
                }
                DML_JOIN_OPERATOR_DESC join{count, d.data(), &whole.desc, axis};
                Runner joiner;
                REQUIRE(joiner.create(DML_OPERATOR_JOIN, &join) == S_OK);
                std::string kernels = hdmlGetOperatorKernels(joiner.op);
                CHECK((kernels.find("hdml_copy_parts_") != std::string::npos) == test_on_cuda());
                REQUIRE(joiner.execute(piece_bindings(), {whole.binding()}) == S_OK);
                for (uint32_t k = 0; k < count; ++k) {
                    check_piece(whole, pieces[k], axis, k * sizes[axis], label + " joined piece " + std::to_string(k));
                }
                check_padding_untouched(whole, whole_before, label);
                // SPLIT: the whole into fresh pieces (sentinel-filled).
                const TestTensor fresh(type, sizes, piece_strides);
                for (TestTensor &piece : pieces) {
                    piece.storage = fresh.storage;
                    piece.buffer_desc.GuaranteedBaseOffsetAlignment = bytes_of(type);
                }
                std::fill(shared.begin(), shared.end(), 0xA5);
                DML_SPLIT_OPERATOR_DESC split{&whole.desc, count, d.data(), axis};
                Runner splitter;
                REQUIRE(splitter.create(DML_OPERATOR_SPLIT, &split) == S_OK);
                kernels += std::string(" / ") + hdmlGetOperatorKernels(splitter.op);
                INFO("kernels " << kernels);
                CHECK((kernels.find("hdml_split_parts_") != std::string::npos) == test_on_cuda());
                REQUIRE(splitter.execute({whole.binding()}, piece_bindings()) == S_OK);
                for (uint32_t k = 0; k < count; ++k) {
                    if (one_buffer) {
                        std::copy(shared.begin() + at(k), shared.begin() + at(k) + pieces[k].storage.size(),
                                  pieces[k].storage.begin());
                        const size_t gap = at(k) + pieces[k].storage.size();  // the element after the piece
                        for (size_t b = 0; b < bytes_of(type); ++b) REQUIRE(shared[gap + b] == 0xA5);
                    }
                    check_piece(whole, pieces[k], axis, k * sizes[axis], label + " split piece " + std::to_string(k));
                    check_padding_untouched(pieces[k], fresh, label + " split piece " + std::to_string(k));
                }
            }
        }
    }
    // Uneven pieces: a piece per launch.
    std::vector<TestTensor> pieces = {TestTensor(F32, {4, 2}), TestTensor(F32, {4, 3})};
    TestTensor whole(F32, {4, 5});
    auto d = descs(pieces);
    DML_JOIN_OPERATOR_DESC join{2, d.data(), &whole.desc, 1};
    DML_SPLIT_OPERATOR_DESC split{&whole.desc, 2, d.data(), 1};
    Runner joiner, splitter;
    REQUIRE(joiner.create(DML_OPERATOR_JOIN, &join) == S_OK);
    REQUIRE(splitter.create(DML_OPERATOR_SPLIT, &split) == S_OK);
    CHECK(std::string(hdmlGetOperatorKernels(joiner.op)).find("_parts_") == std::string::npos);
    CHECK(std::string(hdmlGetOperatorKernels(splitter.op)).find("_parts_") == std::string::npos);
}

// Dense rows, the copy plans' main path (dims fused into long rows, a long
// contiguous run cut into rows for the kernel): pieces on and just off 16-byte
// boundaries, padded rows, whole-row pieces and runs of 2^13 vectors.
TEST_CASE("SPLIT then JOIN of dense rows on and off 16-byte boundaries, every data type", "[split][join][aligned]") {
    std::mt19937 rng(test_seed());
    for (DML_TENSOR_DATA_TYPE type : kDataTypes) {
        const uint32_t v = 16 / bytes_of(type);  // elements per 16 bytes
        const PaddedCase cases[] = {
            {{3, 5, 8 * v}, 2, {2 * v, 5 * v, v}, 0},      // aligned pieces of rows
            {{3, 5, 8 * v}, 2, {2 * v, 5 * v, v}, v},      // ... in padded rows
            {{3, 5, 8 * v}, 2, {v + 1, 7 * v - 1}, 0},     // off the boundaries
            {{3, 5, 8 * v}, 2, {2 * v, 6 * v}, 1},         // aligned pieces, rows padded off them
            {{4, 6, 4 * v}, 1, {1, 2, 3}, 0},              // whole rows: the piece is one dense run
            {{2, 8192 * v}, 1, {4096 * v, 4096 * v}, 0},   // runs long enough to be cut into rows
            {{3, 4 * v + 2}, 1, {2, 4 * v}, 0},            // an aligned piece after an unaligned one
        };
        for (const PaddedCase &c : cases) check_padded_case(type, c, rng);
    }
}

// CPUs move the pieces a block of the whole's rows at a time when there are
// rows outside Axis (runtime/ops/split_join.cpp): blocks of a few bytes (the
// copy_pieces_block_bytes overlay) cut these small shapes into many blocks, a
// last short one included; "[.blocks_log]" below checks that they are taken.
TEST_CASE("SPLIT then JOIN in blocks of rows, every data type", "[split][join][blocks]") {
    if (test_on_gpu()) return;  // a CPU plan (GPUs move a piece at a time)
    std::mt19937 rng(test_seed());
    // Blocks of 1 byte (an index each), of 48 bytes, and of the largest value
    // an overlay takes (the planner's arithmetic saturates: one block).
    for (const std::string bytes : {"1", "48", "9223372036854775807"}) {
        INFO("copy_pieces_block_bytes " << bytes);
        const ScopedDispatch overlay("pieces_blocks.json", R"({"dispatch": {"copy_pieces_block_bytes_per_thread": 0, )"
                                                           R"("copy_pieces_block_bytes": )" + bytes + "}}");
        for (DML_TENSOR_DATA_TYPE type : kDataTypes) {
            for (uint32_t n = 2; n <= 5; ++n) {
                for (int c = 0; c < 4; ++c) {
                    std::vector<uint32_t> sizes(n);
                    for (auto &s : sizes) s = 1 + rng() % 7;
                    const uint32_t axis = 1 + rng() % (n - 1);  // a dim outer to it to cut into blocks
                    sizes[0] += 5;
                    if (rng() % 2) sizes[axis] += 20 + rng() % 40;
                    check_random_round_trip(type, sizes, axis, rng);
                }
            }
        }
    }
}

// A piece that is one long contiguous run is cut into rows for the copy
// kernel's tasks (runtime/shape/copy.cpp; the copy_run_row_bytes threshold):
// rows of 1, 4 and 8 KiB (at the 1024-element floor for 8-, 32- and 64-bit
// elements, longer rows for narrower ones, none for wider ones), no cut
// (1 byte), and the largest value an overlay takes (no cut: no run is twice
// as long).
TEST_CASE("SPLIT then JOIN of contiguous pieces cut into rows, every data type", "[split][join][run_rows]") {
    if (test_on_gpu()) return;  // a CPU threshold
    std::mt19937 rng(test_seed());
    for (const std::string bytes : {"1", "1024", "4096", "8192", "9223372036854775807"}) {
        INFO("copy_run_row_bytes " << bytes);
        const ScopedDispatch overlay("run_rows.json", R"({"dispatch": {"copy_run_row_bytes": )" + bytes + "}}");
        for (DML_TENSOR_DATA_TYPE type : kDataTypes) {
            // Along axis 0 of a packed whole every piece is one run: 1-7 rows of 1024-3072 elements.
            const std::vector<uint32_t> sizes = {2 + (uint32_t)(rng() % 6), 1024 * (1 + (uint32_t)(rng() % 3))};
            const std::vector<uint32_t> lengths = random_lengths(sizes[0], rng);
            auto packed = [](const std::vector<uint32_t> &) { return std::vector<uint32_t>{}; };
            TestTensor whole(type, sizes, packed(sizes));
            check_round_trip(whole, 0, lengths, packed, rng,
                             std::string(short_name(type)) + " sizes " + shape_string(sizes) + " pieces " +
                                 shape_string(lengths));
        }
    }
}

// x86 CPUs move SPLIT/JOIN of at least copy_stream_min_bytes with
// non-temporal stores where every piece's rows are contiguous runs of at
// least 256 bytes (runtime/stream_copy.h). At 1 byte (the overlay) these small
// shapes take it, a piece at a time (axis 0: each piece one run, cut into rows
// of 4 KiB or not) and in blocks of 700 bytes: rows starting off the output's
// 64-byte lines (pieces of odd lengths, padded rows) and ending inside them,
// rows shorter than a line's worth past the head. Both operators report the
// streaming copy (ARM: the copy kernels, which run the same cases).
TEST_CASE("SPLIT then JOIN through the streaming copy, every data type", "[split][join][stream]") {
    if (test_on_gpu()) return;  // a CPU threshold
    const bool streams = std::string(HDML_TEST_CPU_PLATFORM) == "x86";
    std::mt19937 rng(test_seed());
    for (const char *blocks : {"", R"(, "copy_pieces_block_bytes": 700, "copy_pieces_block_bytes_per_thread": 0)"}) {
        const ScopedDispatch overlay(
            "stream.json", std::string(R"({"dispatch": {"copy_stream_min_bytes": 1, "copy_run_row_bytes": 4096)") +
                               blocks + "}}");
        for (DML_TENSOR_DATA_TYPE type : kDataTypes) {
            const uint32_t row = 256 / bytes_of(type);  // elements of the shortest streamed row
            const PaddedCase cases[] = {
                {{5, 3 * row + 7}, 1, {row + 1, row + 3, row + 3}, 0},  // pieces off the lines
                {{4, 3, 2 * row + 5}, 2, {row + 2, row + 3}, 3},        // padded rows
                {{3, 2 * row + 70}, 1, {row, row + 70}, 0},             // a row of 256 bytes
                {{6, 4096}, 0, {1, 2, 3}, 0},                           // each piece a run
                {{4, 6, 2 * row + 1}, 1, {1, 2, 3}, 1},                 // whole padded rows
            };
            for (const PaddedCase &c : cases) {
                check_padded_case(type, c, rng, *blocks ? " blocks" : "", streams ? "hdml_stream_copy" : nullptr);
            }
            if (type == DML_TENSOR_DATA_TYPE_UINT8) {  // rows a byte short of 256: the copy kernel
                check_padded_case(type, {{3, 600}, 1, {255, 345}, 0}, rng, "", "hdml_copy_uint8_" HDML_TEST_CPU_PLATFORM);
            }
        }
    }
}

// On CUDA a large copy whose output rows start inside a 32-byte sector copies
// each row's head apart, then the rest from the sector on (sector_head,
// runtime/shape/copy.h; run_copy): the rule, then JOINs of pieces into packed
// rows of whole sectors (most pieces then start mid-sector) with the
// copy_sector_min_bytes overlay at 1 byte, so every such copy goes in two parts.
TEST_CASE("Copies whose output rows start inside a sector: the head apart", "[split][join][sectors]") {
    using hdml::CopyShape;
    using hdml::sector_head;
    const int64_t MiB16 = 16 << 20;
    // float16 rows of 1000 in words: 500 words, rows 8192 words apart, 16384 rows (32 MB).
    CopyShape rows;
    rows.x = {500, 1, 1};
    rows.y = {16384, 500, 8192};
    CHECK(sector_head(rows, 16, 4, MiB16) == 4);     // 16 bytes into a sector: 4 words apart
    CHECK(sector_head(rows, 4096 + 24, 4, MiB16) == 2);
    CHECK(sector_head(rows, 64, 4, MiB16) == 0);     // on a sector
    CHECK(sector_head(rows, 16, 4, 0) == 0);         // never
    CHECK(sector_head(rows, 16, 4, -1) == 0);        // not set (CPUs, D3D12)
    CHECK(sector_head(rows, 16, 4, 64 << 20) == 0);  // a copy smaller than the threshold
    CHECK(sector_head(rows, 16, 4, INT64_MAX) == 0); // the size saturates
    CHECK(sector_head(rows, 6, 4, 1) == 0);          // not at an element
    CHECK(sector_head(rows, 8, 2, 1) == 12);         // 16-bit elements
    CopyShape odd_rows = rows;
    odd_rows.y.out_stride = 8191;  // rows start at different places in their sectors
    CHECK(sector_head(odd_rows, 16, 4, 1) == 0);
    odd_rows.y.extent = 1;  // one row: its stride does not matter
    CHECK(sector_head(odd_rows, 16, 4, 1) == 4);
    CopyShape looped = rows;
    looped.loops = {{3, 0, 8192 * 16384 + 4}};  // loop offsets 16 bytes apart
    CHECK(sector_head(looped, 16, 4, 1) == 0);
    CopyShape strided = rows;
    strided.x.out_stride = 2;
    CHECK(sector_head(strided, 16, 4, 1) == 0);
    CopyShape short_rows = rows;
    short_rows.x.extent = 31;  // under a 128-byte line
    CHECK(sector_head(short_rows, 16, 4, 1) == 0);
    short_rows.x.extent = 32;
    CHECK(sector_head(short_rows, 16, 4, 1) == 4);

    if (!test_on_cuda()) return;  // a CUDA threshold
    const ScopedDispatch overlay("sectors.json", R"({"dispatch": {"copy_sector_min_bytes": 1}})");
    std::mt19937 rng(test_seed());
    auto packed = [](const std::vector<uint32_t> &) { return std::vector<uint32_t>{}; };
    for (DML_TENSOR_DATA_TYPE type : kDataTypes) {
        for (int c = 0; c < 6; ++c) {
            // Rows of 128-480 elements (whole sectors for every type), pieces along them.
            std::vector<uint32_t> sizes = {uint32_t(2 + rng() % 8), 32 * uint32_t(4 + rng() % 12)};
            if (c % 2) sizes.insert(sizes.begin(), uint32_t(2 + rng() % 3));
            const uint32_t axis = (uint32_t)sizes.size() - 1;
            const std::vector<uint32_t> lengths = random_lengths(sizes[axis], rng);
            TestTensor whole(type, sizes, packed(sizes));
            check_round_trip(whole, axis, lengths, packed, rng,
                             std::string(short_name(type)) + " sizes " + shape_string(sizes) + " pieces " +
                                 shape_string(lengths) + " (seed " + std::to_string(test_seed()) + ")");
        }
    }
}

// Run by ctest as split_join_test.blocks_log, with HDML_VERBOSE=1: the log of
// creating a SPLIT and a JOIN of the case above names their blocks.
TEST_CASE("SPLIT and JOIN report their blocks of rows", "[.blocks_log]") {
    REQUIRE(std::getenv("HDML_VERBOSE") != nullptr);
    const ScopedDispatch overlay("pieces_blocks.json",
                                 R"({"dispatch": {"copy_pieces_block_bytes": 48, "copy_pieces_block_bytes_per_thread": 0}})");
    TestTensor whole(F32, {7, 6});
    std::vector<TestTensor> pieces = {TestTensor(F32, {7, 2}), TestTensor(F32, {7, 4})};
    auto d = descs(pieces);
    DML_SPLIT_OPERATOR_DESC split{&whole.desc, 2, d.data(), 1};
    DML_JOIN_OPERATOR_DESC join{2, d.data(), &whole.desc, 1};
    Runner runner;
    const std::string log = stderr_of([&] {
        CHECK(runner.create(DML_OPERATOR_SPLIT, &split) == S_OK);
        CHECK(runner.create(DML_OPERATOR_JOIN, &join) == S_OK);
    });
    INFO(log);
    // 24-byte rows of the whole: 2 per 48-byte block, 4 blocks (the last of one row).
    CHECK(log.find("DML_OPERATOR_SPLIT: the pieces move together in 4 blocks of 2 indices of dim 0") != std::string::npos);
    CHECK(log.find("DML_OPERATOR_JOIN: the pieces move together in 4 blocks of 2 indices of dim 0") != std::string::npos);
}

// Blocks grow with the pool's threads (HL_NUM_THREADS: ctest sets 4, cross
// builds 2): copy_pieces_block_bytes_per_thread times the threads, but at most
// the whole over the threads, and at least copy_pieces_block_bytes. A JOIN of
// [64, 16] float32 (4 KiB, 64-byte rows) in blocks of at least 256 bytes.
TEST_CASE("JOIN's blocks grow with the pool's threads", "[.blocks_log]") {
    REQUIRE(std::getenv("HDML_VERBOSE") != nullptr);
    REQUIRE(std::getenv("HL_NUM_THREADS") != nullptr);
    const int64_t threads = std::max(1, std::atoi(std::getenv("HL_NUM_THREADS")));
    TestTensor whole(F32, {64, 16});
    std::vector<TestTensor> pieces = {TestTensor(F32, {64, 8}), TestTensor(F32, {64, 8})};
    auto d = descs(pieces);
    DML_JOIN_OPERATOR_DESC join{2, d.data(), &whole.desc, 1};
    // 0: the rule off; 128: grown (4 threads: 512 bytes) or held at 256 (2);
    // 4096: one block per thread.
    for (const int64_t per_thread : {0, 128, 4096}) {
        const int64_t block = std::max<int64_t>(256, per_thread ? std::min(per_thread * threads, 4096 / threads) : 0);
        const int64_t rows = (block + 63) / 64, count = (64 + rows - 1) / rows;
        const std::string blocks = std::to_string(count) + " blocks of " + std::to_string(rows) + " indices";
        INFO("copy_pieces_block_bytes_per_thread " << per_thread << ", " << threads << " threads: " << blocks);
        const ScopedDispatch overlay("pieces_blocks.json",
                                     R"({"dispatch": {"copy_pieces_block_bytes": 256, "copy_pieces_block_bytes_per_thread": )" +
                                         std::to_string(per_thread) + "}}");
        Runner runner;
        const std::string log = stderr_of([&] { CHECK(runner.create(DML_OPERATOR_JOIN, &join) == S_OK); });
        INFO(log);
        if (count < 2) {  // one block (1 thread): the pieces move one by one
            CHECK(log.find("DML_OPERATOR_JOIN: the pieces move together") == std::string::npos);
        } else {
            CHECK(log.find("DML_OPERATOR_JOIN: the pieces move together in " + blocks + " of dim 0") != std::string::npos);
        }
    }
}

// The same for the rows a long contiguous piece is cut into: 16384 float32
// elements in rows of 4 KiB (copy_run_row_bytes), and at the default 64 KiB
// not cut (a run must be twice a row).
TEST_CASE("SPLIT reports the rows its contiguous pieces are cut into", "[.blocks_log]") {
    REQUIRE(std::getenv("HDML_VERBOSE") != nullptr);
    TestTensor whole(F32, {2, 16384});
    std::vector<TestTensor> pieces = {TestTensor(F32, {1, 16384}), TestTensor(F32, {1, 16384})};
    auto d = descs(pieces);
    DML_SPLIT_OPERATOR_DESC split{&whole.desc, 2, d.data(), 0};
    for (const bool cut : {true, false}) {
        INFO("cut " << cut);
        std::optional<ScopedDispatch> overlay;
        if (cut) overlay.emplace("run_rows.json", R"({"dispatch": {"copy_run_row_bytes": 4096}})");
        Runner runner;
        const std::string log = stderr_of([&] { CHECK(runner.create(DML_OPERATOR_SPLIT, &split) == S_OK); });
        INFO(log);
        CHECK(log.find(cut ? "; x{1024, strides 1/1}, y{16}," : "; x{16384, strides 1/1}, y{1},") != std::string::npos);
    }
}

TEST_CASE("SPLIT and JOIN validation rules", "[split][join][validation]") {
    Runner runner;
    auto expect = [&](DML_OPERATOR_TYPE type, const void *desc, const std::string &fragment) {
        const HRESULT hr = runner.create(type, desc);
        INFO(hdmlGetLastErrorMessage());
        CHECK(hr == E_INVALIDARG);
        CHECK(std::string(hdmlGetLastErrorMessage()).find(fragment) != std::string::npos);
    };
    TestTensor whole(F32, {2, 5});
    std::vector<TestTensor> pieces = {TestTensor(F32, {2, 2}), TestTensor(F32, {2, 3})};
    auto d = descs(pieces);
    DML_SPLIT_OPERATOR_DESC split{&whole.desc, 2, d.data(), 1};
    DML_JOIN_OPERATOR_DESC join{2, d.data(), &whole.desc, 1};
    CHECK(runner.create(DML_OPERATOR_SPLIT, &split) == S_OK);
    CHECK(runner.create(DML_OPERATOR_JOIN, &join) == S_OK);

    DML_SPLIT_OPERATOR_DESC s = split;
    s.OutputCount = 0;
    expect(DML_OPERATOR_SPLIT, &s, "OutputCount is 0");
    s = split;
    s.OutputTensors = nullptr;
    expect(DML_OPERATOR_SPLIT, &s, "OutputTensors is null");
    s = split;
    s.Axis = 2;
    expect(DML_OPERATOR_SPLIT, &s, "Axis 2 is out of range");
    s = split;
    s.OutputCount = 1;
    expect(DML_OPERATOR_SPLIT, &s, "sum to 2, but tensor 'InputTensor' has Sizes[1] = 5");
    s = split;
    s.Axis = 0;
    expect(DML_OPERATOR_SPLIT, &s, "tensor 'OutputTensors[0]' has Sizes[1] = 2 but tensor 'InputTensor' has 5");

    std::vector<TestTensor> mixed = {TestTensor(F32, {2, 2}), TestTensor(DML_TENSOR_DATA_TYPE_FLOAT16, {2, 3})};
    auto dm = descs(mixed);
    DML_JOIN_OPERATOR_DESC j{2, dm.data(), &whole.desc, 1};
    expect(DML_OPERATOR_JOIN, &j, "Mismatched tensor data types");
    std::vector<TestTensor> ranks = {TestTensor(F32, {2, 2}), TestTensor(F32, {2, 3, 1})};
    auto dr = descs(ranks);
    j = {2, dr.data(), &whole.desc, 1};
    expect(DML_OPERATOR_JOIN, &j, "DimensionCount");
    j = join;
    j.InputCount = 0;
    expect(DML_OPERATOR_JOIN, &j, "InputCount is 0");
    j = join;
    j.OutputTensor = nullptr;
    expect(DML_OPERATOR_JOIN, &j, "'OutputTensor' is null");
    std::vector<TestTensor> bad = {TestTensor(DML_TENSOR_DATA_TYPE_UINT4, {2, 5})};
    TestTensor bad_whole(DML_TENSOR_DATA_TYPE_UINT4, {2, 5});
    auto db = descs(bad);
    DML_SPLIT_OPERATOR_DESC sb{&bad_whole.desc, 1, db.data(), 0};
    expect(DML_OPERATOR_SPLIT, &sb, "DML_TENSOR_DATA_TYPE_UINT4");
}
