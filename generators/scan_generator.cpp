// CUMULATIVE_SUMMATION and CUMULATIVE_PRODUCT: one scan over r of
// input(i, r, o) into output(i, r, o). The runtime maps any axis onto r and
// reverses r (negative strides) for DML_AXIS_DIRECTION_DECREASING.
//
// The outer layout (and every layout on GPUs) cuts r into chunks (a blocked
// scan; the chunk size is the schedule's choice, scan_chunk_rows):
//   1. chunk_total: the combined value of each chunk (a reduction, parallel);
//   2. carry: the total of the input before each chunk, in two levels over
//      groups of chunks (scan_group_segments), so serial passes stay short;
//   3. scan: each chunk scanned on its own, its carry joined last (chunks are
//      independent now).
// Long inner lines on CUDA (staging=shared) carry per segment of chunks, the
// staged kernel's block, instead of per chunk: phase 1 totals segments, phase 2
// walks 1/segment as many totals, and phase 3 finds a chunk's carry inside its
// segment from the segment's own chunk scans (a prefix in log2(segment) steps).
// The CPU inner layout keeps a line whole (its lines are the parallel work)
// and scans it in vectors (define_vector_scan); CUDA's lines kernel
// (staging=lines) keeps lines of at most max_line elements in one chunk.
// CUDA's walks go down each column (staging=columns, outer layout:
// define_column_walk) or along each line (staging=line_walk, inner layout:
// define_line_walk) in one kernel, carrying from what they stored last; the
// CPUs' walks go down the columns row by row (staging=columns:
// define_row_walk; float16's keeps its float32 totals in a carry row of their
// own, ScanCarryRow below), down chunks of whole rows from each chunk's carry
// (staging=chunk_walk: define_chunk_walk) and along each line vector by vector
// (staging=line_walk: define_vector_walk).
// Running totals are float32 for float16 data; integers wrap in the unsigned
// type of their width. Every chunk's scan is finished from the input before its
// output is written, and reads no other chunk: so the output may alias the input
// (the walks' inclusive scans only: see define_column_walk).
#include "generators/common.h"
#include "generators/float16.h"
#include "generators/prefetch.h"
#include "generators/scan_chunking.h"
#include "schedules/scan_schedule.h"

#include <numeric>

namespace hdml {

using namespace Halide;

enum class ScanOp { Sum, Product };

// The scan's identity in the accumulator type: -0.0 for float sums, the IEEE
// identity (-0 + -0 = -0; +0 would make every sum of -0s +0); 0 or 1 otherwise.
Expr scan_identity(ScanOp op, Type acc_t) {
    if (op == ScanOp::Sum) return acc_t.is_float() ? negative_zero(acc_t) : cast(acc_t, 0);
    return cast(acc_t, 1);
}

Expr scan_combine(ScanOp op, const Expr &a, const Expr &b) {
    return op == ScanOp::Sum ? a + b : a * b;
}

// The CPU row walks' term at `row` of (i, o), row 0 included (its running
// total starts from the identity, which combines exactly: -0 + x, 1 * x):
// the input row (inclusive) or the row before (exclusive; row 0: the
// identity). (Halide peeling row 0 off, by `likely`, ran float16's walk 0.59x.)
Expr row_walk_term(Func x, const Expr &i, const Expr &row, const Expr &o, const Expr &identity, const Expr &inclusive) {
    const Expr before = select(row == 0, identity, x(i, max(row - 1, 0), o));
    return select(inclusive, x(i, row, o), before);
}

class Scan : public Generator<Scan> {
public:
    GeneratorParam<ScanOp> op{"op", ScanOp::Sum, {{"sum", ScanOp::Sum}, {"product", ScanOp::Product}}};
    GeneratorParam<ElemType> dtype{"dtype", ElemType::Float32, elem_type_names()};
    GeneratorParam<Layout> layout{"layout", Layout::Inner, layout_names()};
    // CUDA, inner layout: a block stages a segment of a line (shared: long lines)
    // or whole short lines (lines) in shared memory, see schedule_scan_gpu;
    // or walks along a line (line_walk: many long lines). CUDA, outer layout:
    // columns, a block walks down 32 columns (below). Other kernels ignore it.
    GeneratorParam<ScanStaging> staging{"staging", ScanStaging::None, scan_staging_names()};
    // staging=lines: the longest line the kernel takes (a thread holds it in registers).
    GeneratorParam<int> max_line{"max_line", 0};
    // CPU walks along a line (staging=line_walk, and chunk_walk of the inner
    // layout): the line interleaves `period` scans (element e joins e -
    // period): the packed rows of an outer scan over 2-8 columns, which the
    // runtime passes as one line (define_vector_walk). 1: one scan.
    GeneratorParam<int> period{"period", 1};
    ScanTuning tuning;

    Input<Buffer<>> input{"input", 3};
    Input<int32_t> exclusive{"exclusive"};  // 1: the current element is left out of its own total
    Output<Buffer<>> output{"output", 3};

    void configure() {
        input.set_type(halide_type_of(dtype));
        output.set_type(halide_type_of(dtype));
    }

    void generate() {
        const Type t = halide_type_of(dtype);
        const Type acc_t = t.is_float() ? Float(32) : UInt(t.bits());
        const Conversions convert = conversions();
        const Expr identity = scan_identity(op, acc_t);
        auto combine = [&](const Expr &a, const Expr &b) { return scan_combine(op, a, b); };

        Var i("i"), r("r"), o("o"), k("k"), c("c"), n("n"), nth("nth"), g("g"), j("j");
        const Expr extent = input.dim(1).extent();
        const bool chunked = scan_is_chunked(layout, staging, get_target());
        const int gpu_chunk = scan_gpu_chunk(staging, max_line, tuning);
        // A row's bytes as the chunk walk holds it, float16's in float32 totals
        // (chunks of float16 rows, twice as long, took a CUMPROD chunk's total of
        // uniform [0, 1) rows through float32's denormals: 0.45-0.73x on the Xeon).
        const Expr row_bytes = cast<int64_t>(input.dim(0).extent()) * std::max(t.bytes(), acc_t.bytes());
        const Expr chunk = scan_chunk_rows(extent, chunked, gpu_chunk, tuning, get_target(), staging, row_bytes);
        const Expr chunks = chunked ? (extent + chunk - 1) / chunk : 1;
        const int segment = scan_segment_chunks(staging, tuning, t);  // chunks per segment n
        const Expr segments = (chunks + segment - 1) / segment;
        const Expr group = chunked ? scan_group_segments(segments, staging, get_target()) : 1;
        const Expr groups = (segments + group - 1) / group;

        // Schedules compute whole chunks, blocks of lines and padded lines past
        // the end (never stored): those reads clamp to the buffer.
        Func clamped = BoundaryConditions::repeat_edge(input, {{input.dim(0).min(), input.dim(0).extent()},
                                                               {0, extent},
                                                               {input.dim(2).min(), input.dim(2).extent()}});
        Func x("x");
        x(i, r, o) = convert.widen(clamped(i, r, o), acc_t);

        // The input seen chunk by chunk: element k of chunk c.
        Func tile("tile");
        tile(i, k, c, o) = x(i, c * chunk + k, o);

        RDom in_chunk(0, chunk, "in_chunk");
        Func chunk_total("chunk_total");
        chunk_total(i, c, o) = identity;
        chunk_total(i, c, o) = combine(chunk_total(i, c, o), tile(i, in_chunk, c, o));

        RDom in_segment(0, segment, "in_segment");
        Func segment_total("segment_total");
        if (segment == 1) {
            segment_total = chunk_total;
        } else {
            segment_total(i, n, o) = identity;
            segment_total(i, n, o) = combine(segment_total(i, n, o), chunk_total(i, n * segment + in_segment, o));
        }

        // The carries (the total before each segment) in two levels, so no
        // serial pass is longer than max(groups, group): group totals; the carry
        // into each group (serial over groups); the carry into each segment of
        // a group (serial inside the group, groups in parallel).
        RDom in_group(0, group, "in_group");
        const Expr grouped_segment = g * group + in_group;
        Func group_total("group_total");
        group_total(i, g, o) = identity;
        group_total(i, g, o) = combine(group_total(i, g, o),
                                       select(grouped_segment < segments, segment_total(i, grouped_segment, o), identity));

        RDom later_group(1, groups - 1, "later_group");
        Func group_carry("group_carry");
        group_carry(i, g, o) = identity;
        // One group (CPUs): no serial pass over groups. (Its empty RDom would
        // still widen the bounds: chunk totals of 2 * chunks chunks before the line.)
        if (!scan_has_one_group(get_target())) {
            group_carry(i, later_group, o) =
                combine(group_carry(i, later_group - 1, o), group_total(i, later_group - 1, o));
        }

        RDom later_in_group(1, group - 1, "later_in_group");
        Func carry("carry");  // (i, j, g, o): the total before segment g * group + j
        carry(i, j, g, o) = group_carry(i, g, o);
        carry(i, later_in_group, g, o) =
            combine(carry(i, later_in_group - 1, g, o), segment_total(i, g * group + later_in_group - 1, o));

        // Inside a chunk, an exclusive scan adds the element before each step: a
        // chunk reads no other chunk. The carry joins each running total last,
        // so the totals of a chunk stay small beside a long line's carry (float
        // sums keep their digits over 2^28-element lines).
        RDom step(1, chunk - 1, "step");
        Func scan("scan");
        scan(i, k, c, o) = tile(i, k, c, o);
        scan(i, 0, c, o) = select(exclusive == 0, scan(i, 0, c, o), identity);
        scan(i, step, c, o) =
            combine(scan(i, step - 1, c, o), select(exclusive == 0, scan(i, step, c, o), tile(i, step - 1, c, o)));
        const int interleaved = period;
        const bool line_chunks = staging == ScanStaging::ChunkWalk && layout == Layout::Inner;
        _halide_user_assert(interleaved == 1 || ((staging == ScanStaging::LineWalk || line_chunks) &&
                                                 !get_target().has_gpu_feature() && interleaved > 1))
            << "scan: period " << interleaved
            << " needs a CPU walk along a line (staging=line_walk, or chunk_walk of the inner layout)";
        if ((staging == ScanStaging::LineWalk || line_chunks) && !get_target().has_gpu_feature()) {
            VectorWalk walk = define_vector_walk(i, r, o, identity, combine, line_chunks);
            apply_scan_contract();
            schedule_vector_walk_cpu(walk, tuning, get_target());
            return;
        }
        if (staging == ScanStaging::Columns && !get_target().has_gpu_feature()) {
            RowWalk walk = define_row_walk(i, r, o, identity, combine);
            apply_scan_contract();
            schedule_row_walk_cpu(walk, tuning, get_target());
            return;
        }
        if (staging == ScanStaging::Columns) {
            ColumnWalk walk = define_column_walk(x, chunk_total, scan, in_chunk, step, i, r, o, k, c, gpu_chunk,
                                                 identity, combine);
            apply_scan_contract();
            schedule_column_walk(walk, tuning, get_target());
            return;
        }

        // Segments of several chunks: the carry into chunk nth of segment n from
        // inside the segment, the exclusive prefix of the segment's chunk totals.
        // The totals come from the chunks' own scans (the last running total, and
        // the last element when the scan is exclusive), which phase 3 holds
        // anyway; the prefix doubles its reach each step (the prefix reaching 2d
        // chunks back adds, to the one reaching d, the one d chunks earlier), so a
        // block of a thread per chunk takes log2(segment) + 1 steps.
        std::vector<Func> prefix_steps;  // reach 1, 2, 4, .. segment chunks back
        if (segment > 1) {
            const Expr before_nth = n * segment + max(nth - 1, 0);
            Func prefix("in_segment_prefix_1");  // (i, nth, n, o)
            prefix(i, nth, n, o) = select(nth == 0, identity,
                                          combine(scan(i, chunk - 1, before_nth, o),
                                                  select(exclusive == 0, identity, tile(i, chunk - 1, before_nth, o))));
            prefix_steps.push_back(prefix);
            for (int reach = 2; reach <= segment; reach *= 2) {
                const Func shorter = prefix_steps.back();
                const int back = reach / 2;
                prefix = Func("in_segment_prefix_" + std::to_string(reach));
                prefix(i, nth, n, o) = select(nth >= back, combine(shorter(i, max(nth - back, 0), n, o), shorter(i, nth, n, o)),
                                              shorter(i, nth, n, o));
                prefix_steps.push_back(prefix);
            }
        }

        Func chunk_carry("chunk_carry");  // (i, c, o): the total before chunk c
        const Expr chunk_segment = c / segment;
        const Expr before_segment = carry(i, chunk_segment % group, chunk_segment / group, o);
        chunk_carry(i, c, o) =
            segment == 1 ? before_segment
                         : combine(before_segment, prefix_steps.back()(i, c % segment, chunk_segment, o));
        const Expr result =
            chunked ? combine(chunk_carry(i, r / chunk, o), scan(i, r % chunk, r / chunk, o)) : scan(i, r, 0, o);
        RDom walk;
        VectorScan vector_scan;
        ChunkWalk chunk_walk;
        if (staging == ScanStaging::LineWalk) {
            walk = define_line_walk(x, scan, prefix_steps.back(), i, r, o, chunk, segment, identity, combine);
        } else if (staging == ScanStaging::ChunkWalk && !get_target().has_gpu_feature()) {
            chunk_walk = define_chunk_walk(chunk_carry, i, r, o, k, c, chunk, chunks, identity, combine);
        } else if (layout == Layout::Inner && !get_target().has_gpu_feature()) {
            vector_scan = define_vector_scan(x, i, r, o, identity, combine);
        } else {
            output(i, r, o) = convert.narrow(result, t);
        }
        if (!chunked && get_target().has_gpu_feature()) {
            add_requirement(extent <= chunk, "scan: a line of ", extent, " elements is longer than the ", chunk,
                            " this lines kernel scans in registers");
        }

        apply_scan_contract();
        // The dimension the schedule vectorises (r for inner, i for outer), unit-stride on both sides.
        const int vector_dim = layout == Layout::Inner ? 1 : 0;
        const Expr dense = input.dim(vector_dim).stride() == 1 && output.dim(vector_dim).stride() == 1;
        ScanStages stages{output,      scan,        tile,         chunk_carry,    carry,     group_carry,
                          group_total, segment_total, chunk_total, prefix_steps, i,         r,
                          o,           k,           c,            n,              nth,       g,
                          j,           in_chunk,    in_segment,   in_group,       later_in_group, step,
                          extent,      groups,      dense,        exclusive == 0, layout,    staging,
                          t,           gpu_chunk};
        if (walk.defined()) stages.walk_pass = walk.x, stages.walk_lane = walk.y, stages.walk_segment = walk.z;
        stages.vector = vector_scan;
        stages.chunk_walk = chunk_walk;
        stages.columns = output.dim(0).extent();
        schedule_scan(stages, tuning, get_target());
    }

private:
    Conversions conversions() const {
        return Conversions(get_target(), get_externs_map());
    }

    // The buffers every scan kernel takes: the layout's (apply_layout_contract),
    // and r starting at 0 (the runtime's buffers do), so a chunk of output rows
    // maps onto one chunk.
    void apply_scan_contract() {
        apply_layout_contract(layout, input, output);
        input.dim(1).set_min(0);
        output.dim(1).set_min(0);
    }

    // A walk's carry into the rows from `start`: the running total it stored
    // at the row before (the output element, and for an exclusive scan the
    // input element there too, which the output left out); the identity at
    // the line's start. (The max only bounds the load there, never used.)
    template <typename Combine>
    Expr total_stored_before(Func x, Var i, const Expr &start, Var o, const Expr &identity, Combine combine) {
        const Expr before = max(start - 1, 0);
        const Conversions convert = conversions();
        return select(start == 0, identity,
                      combine(convert.widen(output(i, before, o), identity.type()),
                              select(exclusive == 0, identity, x(i, before, o))));
    }

    // CPU, inner layout: a line in vectors of `lanes` elements (the long
    // serial chain of one add per element was the limit). A vector's own
    // inclusive scan takes log2(lanes) steps, each combining every lane with
    // the lane `reach` before it (in-register shifts, once vectorised); the
    // carry into each vector is a serial pass over the vectors' last lanes (one
    // combine per vector) and joins each running total last. An exclusive scan
    // scans the line shifted by one element, the identity first. A line's
    // output is written after its input is read (in place is safe); lanes past
    // the line's end read clamped input and are never stored.
    template <typename Combine>
    VectorScan define_vector_scan(Func x, Var i, Var r, Var o, const Expr &identity, Combine combine) {
        VectorScan s = define_vector_steps(x, i, o, identity, combine, true, 1);
        const int lanes = s.lanes;
        const Expr extent = input.dim(1).extent();
        const Func prefix = s.steps.back();
        s.later = RDom(1, (extent + lanes - 1) / lanes - 1, "later_vector");
        const RVar later = s.later.x;
        s.carry = Func("vector_carry");
        s.carry(i, s.vec, o) = identity;
        s.carry(i, later, o) = combine(s.carry(i, later - 1, o), prefix(i, lanes - 1, later - 1, o));
        output(i, r, o) = conversions().narrow(combine(s.carry(i, r / lanes, o), prefix(i, r % lanes, r / lanes, o)),
                                               output.type());
        return s;
    }

    // staging=line_walk on CPUs (inner layout): a line in vectors, each
    // vector's own scan (define_vector_steps) joined with the running total
    // that the output holds at the element before it, one pass (in a C++
    // model on the Zen 4 VM, the vector scan's three passes over a block of
    // lines ran at 0.5x one pass). float16 walks lines (or chunks) into
    // float32 totals that the output narrows. An exclusive scan shifts each vector's
    // inclusive scan by a lane and adds the input element before the vector
    // to the carry, which in place is already overwritten: there the runtime
    // takes the vector scan. Whole vectors read the input unclamped and
    // densely; the line's last elements past them (fewer than a vector) go
    // one by one (update 1). A line of `period` interleaved scans joins each
    // element with the one `period` before: the vectors' steps start at that
    // reach, and a lane's carry is the stored element of its scan in the
    // vector before (vectors of the least multiple of the natural vector and
    // `period`: a broadcast per scan and an interleave, no gather).
    // in_chunks (staging=chunk_walk, inner layout: fewer lines than threads):
    // the line in chunks of about chunk_walk_bytes, as the outer chunk walk
    // cuts rows: each chunk's totals (a vector per chunk, its lanes of each
    // scan then combined), their carries (serial over the chunks), then each
    // chunk walked from its carry, the chunks in parallel.
    template <typename Combine>
    VectorWalk define_vector_walk(Var i, Var r, Var o, const Expr &identity, Combine combine, bool in_chunks) {
        const Type t = output.type(), acc_t = identity.type();
        const Conversions convert = conversions();
        // float16: the walk stores float32 running totals in a line of its own
        // (in chunks: a chunk's, define_chunk_totals), which the output narrows
        // (carried from the stored float16, the totals would round at every vector).
        const bool widened = t.bits() != acc_t.bits();
        Func x = walk_input(Layout::Inner, "line_walk", acc_t, true);
        Func walked = widened ? Func("walked") : output;
        auto stored_at = [&](const Expr &at, const Expr &line) {
            return widened ? walked(i, at, line) : convert.widen(output(i, at, line), acc_t);
        };
        auto to_store = [&](const Expr &total) { return widened ? total : convert.narrow(total, t); };
        const int p = period;
        VectorScan s = define_vector_steps(x, i, o, identity, combine, false, p);
        const int lanes = s.lanes;
        const Var lane = s.lane, vec = s.vec;
        Func shifted("vector_exclusive");  // each vector's exclusive scan
        shifted(i, lane, vec, o) = select(lane >= p, s.steps.back()(i, max(lane - p, 0), vec, o), identity);
        s.steps.push_back(shifted);
        const Expr inclusive = exclusive == 0, extent = input.dim(1).extent(), whole = extent / lanes;
        // The inclusive total of the scan of `at` >= p before it, in line `line`.
        auto total_before = [&](const Expr &at, const Expr &line) {
            const Expr stored = stored_at(at - p, line);
            return select(inclusive, stored, combine(stored, x(i, at - p, line)));
        };
        const Func own_inclusive = s.steps[s.steps.size() - 2];
        auto own = [&](const Expr &lane_at, const Expr &vector_at, const Expr &line) {
            return select(inclusive, own_inclusive(i, lane_at, vector_at, line), shifted(i, lane_at, vector_at, line));
        };
        VectorWalk w;
        w.steps = s.steps, w.i = i, w.r = r, w.o = o, w.step_lane = lane;
        if (widened && in_chunks) {
            define_chunk_totals(x, s, identity, combine, whole, own, &w);
            return w;
        }
        walked(i, r, o) = undef(widened ? acc_t : t);
        w.output = walked;
        if (!in_chunks) {
            RDom walk(0, lanes, 0, whole, "walk");
            const Expr first = walk.y * lanes;
            const Expr carry = select(walk.y == 0, identity, total_before(max(first + walk.x % p, p), o));
            walked(i, first + walk.x, o) = to_store(combine(carry, own(walk.x, walk.y, o)));
            w.lane = walk.x, w.vec = walk.y;
        } else {
            define_line_chunks(x, s, identity, combine, whole, &w);
            const Expr vectors = w.chunk_vectors;
            // o in the domain too: the schedule fuses (chunk, o) into its tasks.
            RDom walk(0, lanes, 0, vectors, 0, w.chunks, output.dim(2).min(), output.dim(2).extent(), "walk");
            const Expr unbounded = walk.z * vectors + walk.y;
            walk.where(unbounded < whole);
            // (A promise the `where` keeps: bounds inference does not see it.)
            const Expr vector_at = unsafe_promise_clamped(unbounded, 0, whole - 1);
            const Expr first = vector_at * lanes, chunk_first = walk.z * vectors * lanes;
            // A chunk's first vector from its carry; the others from this task's
            // stores (the max keeps the unused load inside the chunk).
            const Expr carry = select(walk.y == 0, w.chunk_carry(i, walk.x, walk.z, walk.w),
                                      total_before(max(first + walk.x % p, chunk_first + p), walk.w));
            walked(i, first + walk.x, walk.w) = to_store(combine(carry, own(walk.x, vector_at, walk.w)));
            w.lane = walk.x, w.vec = walk.y, w.chunk = walk.z, w.line = walk.w;
        }
        RDom rest(whole * lanes, extent - whole * lanes, "rest");
        const Expr at = rest.x;
        walked(i, at, o) = to_store(
            combine(select(at < p, identity, total_before(max(at, p), o)), select(inclusive, x(i, at, o), identity)));
        if (widened) {
            output(i, r, o) = convert.narrow(walked(i, r, o), t);
            w.narrowed = output;
        }
        if (in_chunks) {  // (after the definitions: a requirement completes the pipeline)
            add_requirement(extent >= lanes, "scan staging=chunk_walk: a line of ", extent,
                            " elements is shorter than a vector, ", lanes);
        }
        w.rest = rest.x, w.lanes = lanes, w.extent = extent, w.type = t, w.inclusive = inclusive;
        w.dense = input.dim(1).stride() == 1 && output.dim(1).stride() == 1;
        return w;
    }

    // float16 lines in chunks (staging=chunk_walk, inner layout): each chunk
    // of whole vectors walked into float32 totals of its own (w->output,
    // indexed (i, element in chunk, chunk, o): a task computes its chunk's
    // alone), its first vector from the chunk's carry (define_line_chunks),
    // then narrowed into the output (w->narrowed). Lines of whole vectors only
    // (the runtime sends multiples of 16, 48 for period 3): no rest.
    template <typename Combine, typename Own>
    void define_chunk_totals(Func x, const VectorScan &s, const Expr &identity, Combine combine, const Expr &whole,
                             Own own, VectorWalk *w) {
        const int lanes = s.lanes, p = period;
        const Var i = w->i, r = w->r, o = w->o;
        define_line_chunks(x, s, identity, combine, whole, w);
        const Expr vectors = w->chunk_vectors, extent = input.dim(1).extent();
        const int chunk_elements = *as_const_int(simplify(vectors * lanes));
        Var e("e"), c("c");
        Func totals("chunk_walked");
        totals(i, e, c, o) = undef(identity.type());
        // A line shorter than a chunk allocates its own length (a chunk's 256 KiB
        // per call made lines of 4 KiB 0.36x the vector scan): so the walk's
        // extent, and the output's promise below.
        RDom walk(0, lanes, 0, min(vectors, whole), "walk");
        walk.where(c * vectors + walk.y < whole);  // the last chunk's vectors only
        const Expr vector_at = unsafe_promise_clamped(c * vectors + walk.y, 0, whole - 1), local = walk.y * lanes;
        // The element of the lane's scan before the vector, line-wide and in the
        // chunk (the max keeps the unused load of a chunk's first vector inside).
        const Expr scan_lane = walk.x % p, before = max(vector_at * lanes + scan_lane, p) - p;
        const Expr stored = totals(i, max(local + scan_lane, p) - p, c, o);
        const Expr carry = select(walk.y == 0, w->chunk_carry(i, walk.x, c, o),
                                  select(exclusive == 0, stored, combine(stored, x(i, before, o))));
        totals(i, local + walk.x, c, o) = combine(carry, own(walk.x, vector_at, o));
        // (The promise: a line shorter than a chunk needs only its own length.)
        const Expr element = unsafe_promise_clamped(r % chunk_elements, 0, min(chunk_elements, extent) - 1);
        output(i, r, o) = conversions().narrow(totals(i, element, r / chunk_elements, o), output.type());
        add_requirement(extent >= lanes && extent % lanes == 0, "scan staging=chunk_walk: a float16 line of ", extent,
                        " elements is not whole vectors of ", lanes);
        w->output = totals, w->narrowed = output, w->lane = walk.x, w->vec = walk.y;
        w->chunk_elements = chunk_elements, w->lanes = lanes, w->extent = extent, w->type = output.type();
        w->inclusive = exclusive == 0;
        w->dense = input.dim(1).stride() == 1 && output.dim(1).stride() == 1;
    }

    // The line chunks of define_vector_walk: chunks of w->chunk_vectors whole
    // vectors; w->chunk_carry (i, lane, chunk, o), each lane's carry into the
    // chunk (the total of its scan before it), a vector per chunk. Only whole
    // chunks are totalled (the last, maybe partial, carries into none): but
    // bounds inference computes one chunk of a one-chunk line all the same,
    // so there the totals read nothing (a line of one chunk costs what the
    // line walk does), and elsewhere their reads stop at the last whole vector.
    template <typename Combine>
    void define_line_chunks(Func x, const VectorScan &s, const Expr &identity, Combine combine, const Expr &whole,
                            VectorWalk *w) {
        const int lanes = s.lanes, p = period;
        const Var i = w->i, o = w->o, lane = s.lane;
        Var c("c"), j("j");
        // (float16: chunks of chunk_walk_bytes of float32 totals, define_chunk_totals)
        const int element_bytes = std::max(output.type().bytes(), identity.type().bytes());
        const int vectors = std::max<int>(tuning.chunk_walk_bytes / (lanes * element_bytes), 1);
        w->chunk_vectors = vectors;
        w->chunks = (whole + vectors - 1) / vectors;
        RDom in_chunk(0, select(w->chunks > 1, vectors, 0), "in_chunk");
        w->vector_total = Func("vector_total");  // (i, lane, c, o): a chunk's vectors combined lane by lane
        w->vector_total(i, lane, c, o) = identity;
        const Expr vector_at = min(c * vectors + in_chunk, whole - 1);
        w->vector_total(i, lane, c, o) = combine(w->vector_total(i, lane, c, o), x(i, vector_at * lanes + lane, o));
        w->in_chunk = in_chunk.x;
        RDom same_scan(0, lanes / p, "same_scan");
        Func chunk_total("chunk_total");  // (i, j, c, o): scan j's total over chunk c
        chunk_total(i, j, c, o) = identity;
        chunk_total(i, j, c, o) = combine(chunk_total(i, j, c, o), w->vector_total(i, j + same_scan * p, c, o));
        RDom later(1, w->chunks - 1, "later_chunk");
        w->scan_carry = Func("scan_carry");  // (i, j, c, o): scan j's total before chunk c
        w->scan_carry(i, j, c, o) = identity;
        w->scan_carry(i, j, later, o) = combine(w->scan_carry(i, j, later - 1, o), chunk_total(i, j, later - 1, o));
        w->chunk_total = chunk_total;
        w->chunk_carry = Func("chunk_carry");
        w->chunk_carry(i, lane, c, o) = w->scan_carry(i, lane % p, c, o);
    }

    // The CPU walks' input, widened to acc_t: unclamped, as every read is
    // inside the buffer (clamped, the vectors were gathers). The walks carry
    // from the output, so only types that accumulate in their own width, but
    // where the walk keeps wider totals of its own (`wider_totals`).
    Func walk_input(Layout walked, const char *staging_name, const Type &acc_t, bool wider_totals = false) {
        _halide_user_assert(layout == walked && (wider_totals || output.type().bits() == acc_t.bits()))
            << "scan staging=" << staging_name << " on CPUs walks the "
            << (walked == Layout::Inner ? "lines of the inner" : "columns of the outer") << " layout, in types "
            << (walked == Layout::Inner ? "that accumulate in their own width, or float16"
                                        : "that accumulate in their own width");
        Var i("i"), r("r"), o("o");
        Func x("unclamped");
        x(i, r, o) = conversions().widen(input(i, r, o), acc_t);
        return x;
    }

    // The vectors of a line (CPU, inner layout) and each one's own inclusive
    // scan, for define_vector_scan and define_vector_walk: s.steps (i, lane,
    // vec, o), the input first, then after 1, 2, 4, .. in-register steps.
    // shifted_exclusive: an exclusive scan scans the line shifted by one
    // element (the vector scan; the walk shifts the scans instead).
    // interleaved: the scans a line interleaves, the walk's period (steps
    // from that reach; vectors of a multiple of it hold every scan alike).
    template <typename Combine>
    VectorScan define_vector_steps(Func x, Var i, Var o, const Expr &identity, Combine combine,
                                   bool shifted_exclusive, int interleaved) {
        VectorScan s;
        const int lanes = s.lanes = std::lcm(scan_vector_lanes(identity.type(), get_target()), interleaved);
        const Expr extent = input.dim(1).extent();
        const Var lane = s.lane = Var("lane"), vec = s.vec = Var("vec");
        const Expr element = vec * lanes + lane;
        // Element `at` of the line: x's, or where prefetch_bytes is set, the
        // input read with a prefetch ahead of each vector's loads tied to the
        // index (generators/prefetch.h), added after the clamp, so that the
        // vectors inside the line still load densely. Only inputs of
        // prefetch_min_bytes or more prefetch (s.prefetching): in the caches
        // the prefetches only cost (VM, 4 MiB: inner scans 0.75-0.95x with
        // them, 256 MiB 1.08-1.42x).
        Expr zero;  // the prefetch (undefined: none), one per vector of `element`, shared by a step's two reads
        if (tuning.prefetch_bytes > 0 && shifted_exclusive) {  // (the walk's dense loads did not need it)
            s.prefetching = spans_at_least(input, tuning.prefetch_min_bytes);
            zero = prefetch_if(s.prefetching, prefetch_ahead_of(input, i, element, o, lanes,
                                                                Expr((int64_t)tuning.prefetch_bytes), get_target(),
                                                                *get_externs_map()));
        }
        auto x_at = [&](const Expr &at) -> Expr {
            if (!zero.defined()) return x(i, at, o);
            auto edge = [&](const Expr &v, int d) {
                return clamp(likely(v), input.dim(d).min(), input.dim(d).min() + input.dim(d).extent() - 1);
            };
            const Expr row = unsafe_promise_clamped(edge(at, 1) + zero, 0, extent - 1);
            return conversions().widen(input(edge(i, 0), row, edge(o, 2)), identity.type());
        };
        Func step("vector_input");
        step(i, lane, vec, o) = shifted_exclusive ? select(exclusive == 0, x_at(element),
                                                           select(element == 0, identity, x_at(element - 1)))
                                                  : x_at(element);
        s.steps = {step};
        for (int reach = interleaved; reach < lanes; reach *= 2) {
            const Func before = s.steps.back();
            step = Func("vector_scan_" + std::to_string(reach));
            step(i, lane, vec, o) =
                combine(select(lane >= reach, before(i, max(lane - reach, 0), vec, o), identity), before(i, lane, vec, o));
            s.steps.push_back(step);
        }
        return s;
    }

    // staging=line_walk (CUDA, inner layout, many long lines): the input is
    // read from memory once (2n traffic; the staged kernel reads it twice, for
    // the segment totals and then for the scans: 3n). A block takes a line,
    // walking it segment after segment; a segment's element is its scan inside
    // the chunk, the carry of its chunk inside the segment (in_segment_carry),
    // and the segment's carry: the output element before the segment, which
    // this block stored at the segment before (its running total). As for the
    // column walk, only types that accumulate in their own width, and exclusive
    // scans in place take the staged kernel. Returns the walk (pass, lane,
    // segment) for the schedule.
    template <typename Combine>
    RDom define_line_walk(Func x, Func scan, Func in_segment_carry, Var i, Var r, Var o, const Expr &chunk,
                          int segment, const Expr &identity, Combine combine) {
        const Type t = output.type(), acc_t = identity.type();
        _halide_user_assert(layout == Layout::Inner && segment > 1 && t.bits() == acc_t.bits())
            << "scan staging=line_walk walks the lines of the inner layout, "
               "in types that accumulate in their own width";
        const Expr extent = input.dim(1).extent(), segment_rows = chunk * segment;
        const Conversions convert = conversions();
        output(i, r, o) = undef(t);
        // Element pass * segment + lane of segment n: a thread per lane stores
        // consecutive elements at each pass (coalesced).
        RDom walk(0, chunk, 0, segment, 0, (extent + segment_rows - 1) / segment_rows, "walk");
        const RVar pass = walk.x, lane = walk.y, n = walk.z;
        const Expr in_segment = pass * segment + lane, row = n * segment_rows + in_segment, nth = in_segment / chunk;
        walk.where(row < extent);
        const Expr carry = total_stored_before(x, i, n * segment_rows, o, identity, combine);
        const Expr in_chunk = scan(i, in_segment % chunk, n * segment + nth, o);
        // (The min only bounds the rows past the end, which `where` skips.)
        output(i, min(row, extent - 1), o) = convert.narrow(combine(combine(carry, in_segment_carry(i, nth, n, o)), in_chunk), t);
        return walk;
    }

    // staging=columns on CPUs (outer layout, many columns): one pass down the
    // line, each row combined with the output row before it, row 0 with the
    // identity (vectors across the columns; the chunked scan reads the input
    // twice, and a first row apart was a pass of its own). As for the CUDA
    // walk, only types that accumulate in their own width; an exclusive scan
    // reads the input row before, which in place is already overwritten: there
    // the runtime takes the chunked kernel.
    template <typename Combine>
    RowWalk define_row_walk(Var i, Var r, Var o, const Expr &identity, Combine combine) {
        const Type t = output.type(), acc_t = identity.type();
        const Conversions convert = conversions();
        Func x = walk_input(Layout::Outer, "columns", acc_t);
        RDom row(0, input.dim(1).extent(), "row");
        output(i, r, o) = undef(t);
        const Expr stored = select(row.x == 0, identity, convert.widen(output(i, max(row.x - 1, 0), o), acc_t));
        output(i, row, o) = convert.narrow(combine(stored, row_walk_term(x, i, row.x, o, identity, exclusive == 0)), t);
        return RowWalk{output, i, o, row.x, exclusive == 0, input.dim(0).stride() == 1 && output.dim(0).stride() == 1,
                       input.dim(0).extent(), input.dim(1).extent()};
    }

    // The CPU chunk walk's running total at row > 0 of (i, o): the
    // output row before it (stored, widened), combined with the input row
    // (inclusive) or the input row before (exclusive).
    template <typename Combine>
    Expr after_stored_row(Func x, const Expr &i, const Expr &row, const Expr &o, Combine combine) {
        const Expr before = conversions().widen(output(i, row - 1, o), x.output_types()[0]);
        return combine(before, select(exclusive == 0, x(i, row, o), x(i, row - 1, o)));
    }

    // staging=chunk_walk on CPUs (outer layout, too few columns for the row
    // walk's tasks): the blocked scan's chunk totals and carries, then a task
    // per chunk of rows walks them whole, each row combined with the row
    // before, the first with the chunk's carry. It reads the input twice, as
    // the blocked scan does, but in whole rows (contiguous) and without that
    // scan's buffered rescan. float16 walks each chunk into float32 totals of
    // its own (define_chunk_rows_widened). An exclusive scan reads the input
    // row before, which in place is already overwritten: there the runtime
    // takes the blocked scan.
    template <typename Combine>
    ChunkWalk define_chunk_walk(Func chunk_carry, Var i, Var r, Var o, Var k, Var c, const Expr &chunk,
                                const Expr &chunks, const Expr &identity, Combine combine) {
        const Type t = output.type(), acc_t = identity.type();
        const Conversions convert = conversions();
        const bool widened = t.bits() != acc_t.bits();
        Func x = walk_input(Layout::Outer, "chunk_walk", acc_t, widened);
        output(i, r, o) = undef(t);
        if (widened) return define_chunk_rows_widened(x, chunk_carry, i, o, k, c, chunk, chunks, combine);
        RDom head(0, chunks, "head");
        const Expr first = head.x * chunk;
        output(i, first, o) =
            convert.narrow(combine(chunk_carry(i, head.x, o), select(exclusive == 0, x(i, first, o), identity)), t);
        // o in the domain too: the schedule fuses (chunk, o) into its tasks (Halide fuses no RVar with a Var).
        RDom walk(1, chunk - 1, 0, chunks, output.dim(2).min(), output.dim(2).extent(), "chunk_walk");
        const Expr extent = input.dim(1).extent(), unbounded = walk.y * chunk + walk.x, line = walk.z;
        walk.where(unbounded < extent);
        // (A promise the `where` keeps: bounds inference does not see it.)
        const Expr row = unsafe_promise_clamped(unbounded, 1, extent - 1);
        output(i, row, line) = convert.narrow(after_stored_row(x, i, row, line, combine), t);
        return ChunkWalk{head.x, walk.x, walk.y, walk.z};
    }

    // The chunk walk of float16: chunk c's rows walked into float32 totals
    // (ChunkWalk::totals, (i, k, c, o): a task computes its chunk's alone), the
    // first from the chunk's carry, then narrowed into the output (carried
    // from the stored float16, the totals would round at every row).
    template <typename Combine>
    ChunkWalk define_chunk_rows_widened(Func x, Func chunk_carry, Var i, Var o, Var k, Var c, const Expr &chunk,
                                        const Expr &chunks, Combine combine) {
        const Expr extent = input.dim(1).extent(), inclusive = exclusive == 0, first = c * chunk;
        Func totals("chunk_rows_walked");
        totals(i, k, c, o) = undef(x.output_types()[0]);
        totals(i, 0, c, o) = select(inclusive, combine(chunk_carry(i, c, o), x(i, first, o)), chunk_carry(i, c, o));
        RDom rows(1, chunk - 1, "chunk_rows");
        rows.where(first + rows.x < extent);
        // (A promise the `where` keeps: bounds inference does not see it.)
        const Expr row = unsafe_promise_clamped(first + rows.x, 1, extent - 1);
        totals(i, rows.x, c, o) =
            combine(totals(i, rows.x - 1, c, o), select(inclusive, x(i, row, o), x(i, row - 1, o)));
        // o in the domain too: the schedule fuses (chunk, o) into its tasks.
        RDom walk(0, chunk, 0, chunks, output.dim(2).min(), output.dim(2).extent(), "chunk_walk");
        const Expr unbounded = walk.y * chunk + walk.x;
        walk.where(unbounded < extent);
        output(i, unsafe_promise_clamped(unbounded, 0, extent - 1), walk.z) =
            conversions().narrow(totals(i, walk.x, walk.y, walk.z), output.type());
        ChunkWalk w{RVar(), walk.x, walk.y, walk.z};
        w.totals = totals, w.total_row = rows.x;
        return w;
    }

    // staging=columns (CUDA, outer layout, many columns): the input is read
    // from memory once (2n traffic; the chunked scan reads it twice, 3n). A
    // block takes a warp of columns down the whole line, a tile of `chunks`
    // chunks at a time, a thread per (column, chunk) of the tile:
    //   1. the tile's chunk totals, into shared memory;
    //   2. the output: each thread scans its chunk (a second read of the tile,
    //      from cache) and joins its carry: the output row before the tile,
    //      which this block wrote at the tile before (its running total), and
    //      the totals of the tile's chunks before this one.
    // The output holds the running total: only types that accumulate in their
    // own width take this kernel. An exclusive scan also reads the element
    // before the tile, which in place is already overwritten: there the
    // runtime takes the chunked kernel. Returns the stages for the schedule.
    template <typename Combine>
    ColumnWalk define_column_walk(Func x, Func chunk_total, Func scan, RDom in_chunk, RDom step, Var i, Var r, Var o,
                            Var k, Var c, int chunk, const Expr &identity, Combine combine) {
        const Type t = output.type(), acc_t = identity.type();
        _halide_user_assert(layout == Layout::Outer && t.bits() == acc_t.bits())
            << "scan staging=columns walks the columns of the outer layout, "
               "in types that accumulate in their own width";
        const int chunks = tuning.gpu_column_chunks, tile_rows = chunk * chunks;
        const Expr extent = input.dim(1).extent();
        const Conversions convert = conversions();
        output(i, r, o) = undef(t);
        // Row `in_chunk` of chunk `nth` of tile `tile`: the carry depends on
        // the chunk alone, so a thread computes it once for its chunk's rows.
        RDom walk(0, chunk, 0, chunks, 0, (extent + tile_rows - 1) / tile_rows, "walk");
        const Expr first_chunk = walk.z * chunks, own_chunk = first_chunk + walk.y;
        const Expr row = own_chunk * chunk + walk.x;
        walk.where(row < extent);
        Expr carry = total_stored_before(x, i, first_chunk * chunk, o, identity, combine);
        for (int earlier = 0; earlier + 1 < chunks; earlier++) {
            carry = combine(carry, select(earlier < walk.y, chunk_total(i, first_chunk + earlier, o), identity));
        }
        // (The min only bounds the rows past the end, which `where` skips.)
        output(i, min(row, extent - 1), o) = convert.narrow(combine(carry, scan(i, walk.x, own_chunk, o)), t);
        return ColumnWalk{output, chunk_total, scan, i,          o,      k,     c,
                          walk.x, walk.y,      walk.z, in_chunk.x, step.x, chunk, exclusive == 0};
    }
};

// CPUs, float16 outer scans over many columns (the own-width types' row walk,
// staging=columns, for data whose running totals are wider than its elements):
// one pass down the rows, each row combined with the float32 running totals of
// the row before. Those totals cannot come back from the float16 output (they
// would round at every row), so the kernel has a second output, `carry`: the
// runtime binds it to one float32 row per (i, o), its r dim of stride 0, which
// every row's update overwrites after reading it (a task walks its columns' rows
// in order, and no two tasks share a column). So the input is read once, where
// the chunk walk reads it twice. In place the runtime takes the blocked scan:
// an exclusive scan reads the input row before, already overwritten, and
// Halide stores a Tuple's elements one by one, each computed again, so the
// carry loads the row after the scanned row's store over it (where LLVM did
// not merge the two loads, gathers and masked vectors, the carry took the new
// sum). Loading the row once into a Func of its own cost the walk 18-21%.
class ScanCarryRow : public Generator<ScanCarryRow> {
public:
    GeneratorParam<ScanOp> op{"op", ScanOp::Sum, {{"sum", ScanOp::Sum}, {"product", ScanOp::Product}}};
    GeneratorParam<ElemType> dtype{"dtype", ElemType::Float16, elem_type_names()};
    GeneratorParam<Layout> layout{"layout", Layout::Outer, layout_names()};
    GeneratorParam<ScanStaging> staging{"staging", ScanStaging::Columns, scan_staging_names()};
    ScanTuning tuning;

    Input<Buffer<>> input{"input", 3};
    Input<int32_t> exclusive{"exclusive"};  // 1: the current element is left out of its own total
    // (the scan in the data type, the running totals in float32)
    Output<Func> output{"output", {Float(16), Float(32)}, 3};

    void configure() {
        _halide_user_assert(dtype == ElemType::Float16 && layout == Layout::Outer &&
                            staging == ScanStaging::Columns && !get_target().has_gpu_feature())
            << "scan_carry_row is the CPUs' row walk (layout=outer staging=columns) of float16";
        input.set_type(Float(16));
    }

    void generate() {
        const Type t = Float(16), acc_t = Float(32);
        const Conversions convert(get_target(), get_externs_map());
        const Expr identity = scan_identity(op, acc_t);
        auto combine = [&](const Expr &a, const Expr &b) { return scan_combine(op, a, b); };
        Var i("i"), r("r"), o("o");
        Func x("x");
        x(i, r, o) = convert.widen(input(i, r, o), acc_t);
        const Expr inclusive = exclusive == 0;
        auto both = [&](const Expr &total) { return Tuple(convert.narrow(total, t), total); };
        output(i, r, o) = Tuple(undef(t), undef(acc_t));
        RDom row(0, input.dim(1).extent(), "row");
        const Expr stored = select(row.x == 0, identity, output(i, max(row.x - 1, 0), o)[1]);
        output(i, row, o) = both(combine(stored, row_walk_term(x, i, row.x, o, identity, inclusive)));

        const std::vector<OutputImageParam> outputs = Func(output).output_buffers();
        OutputImageParam scanned = outputs[0], carry = outputs[1];
        allow_any_strides(input);
        allow_any_strides(scanned);
        carry.dim(0).set_stride(1);  // (the runtime's row: its columns dense)
        input.dim(1).set_min(0);
        scanned.dim(1).set_min(0);  // (the carry's dims follow the output's)
        RowWalk walk{output, i, o, row.x, inclusive, input.dim(0).stride() == 1 && scanned.dim(0).stride() == 1,
                     input.dim(0).extent(), input.dim(1).extent()};
        schedule_row_walk_cpu(walk, tuning, get_target());
    }
};

}  // namespace hdml

HALIDE_REGISTER_GENERATOR(hdml::Scan, scan)
HALIDE_REGISTER_GENERATOR(hdml::ScanCarryRow, scan_carry_row)
