#!/bin/bash
# Dispatch overlays on one library (.device-bin/new.so.0.xz, a4d275e's kernels, single-ISA AVX-512), paired
# against it by bench/cpu/lib_ab.py at 16 and 2 threads of the GPU machine's Xeon: the below-goal short rows
# (reductions and ARGMAX over rows of 16 and 64) and SPLIT/JOIN. Output: $OUT/<group>-<threads>.jsonl.
set -eu
here=bench/results/2026-11-30-cpu-dispatch-sweep
bin=$(cd .device-bin && pwd)
xz -dkf "$bin/new.so.0.xz"
lib="$bin/new.so.0"
for t in ${THREADS:-16 2}; do
    python3 bench/cpu/lib_ab.py --threads "$t" --repeats "${REPEATS:-3}" \
        --cases '^(reduce/(sum|max)/f(16|32)/rows(16|64)|argmax/f(16|32)/rows16)$' \
        def="$lib" def2="$lib" ext32="$lib" ext32w="$lib" vec16="$lib" \
        --overlay ext32=$here/overlays/ext32.json --overlay ext32w=$here/overlays/ext32w.json \
        --overlay vec16=$here/overlays/vec16.json > "$OUT/rows-$t.jsonl" 2>>"$OUT/bench.err"
    python3 bench/cpu/lib_ab.py --summary "$OUT/rows-$t.jsonl"
    python3 bench/cpu/lib_ab.py --threads "$t" --repeats "${REPEATS:-3}" --cases '^(split|join)/' \
        def="$lib" def2="$lib" blk1m="$lib" blk4m="$lib" run256k="$lib" run1m="$lib" \
        --overlay blk1m=$here/overlays/blk1m.json --overlay blk4m=$here/overlays/blk4m.json \
        --overlay run256k=$here/overlays/run256k.json --overlay run1m=$here/overlays/run1m.json \
        > "$OUT/copies-$t.jsonl" 2>>"$OUT/bench.err"
    python3 bench/cpu/lib_ab.py --summary "$OUT/copies-$t.jsonl"
done
