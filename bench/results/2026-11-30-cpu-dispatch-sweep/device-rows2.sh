#!/bin/bash
# More overlays on the short rows (reductions over rows of 16 and 64, LOG_SUM_EXP included, and ARGMAX over rows
# of 16), paired with the library itself (.device-bin/blocks.so.0.xz, aa9fac2) by bench/cpu/lib_ab.py at 16 and 2
# threads of the GPU machine's Xeon: rows=vectors with the prefetch (pf1024), LOG_SUM_EXP over rows of 64 in the
# plain kernel (lse32), rows of 16 in the plain kernel (plain16). Output: $OUT/rows2-<threads>.jsonl.
set -eu
here=bench/results/2026-11-30-cpu-dispatch-sweep
bin=$(cd .device-bin && pwd)
xz -dkf "$bin/blocks.so.0.xz"
lib="$bin/blocks.so.0"
for t in ${THREADS:-16 2}; do
    python3 bench/cpu/lib_ab.py --threads "$t" --repeats "${REPEATS:-3}" \
        --cases '^(reduce/(sum|max|log_sum_exp)/f(16|32)/rows(16|64)|argmax/f(16|32)/rows16)$' \
        def="$lib" def2="$lib" pf1024="$lib" lse32="$lib" plain16="$lib" \
        --overlay pf1024=$here/overlays/pf1024.json --overlay lse32=$here/overlays/lse32.json \
        --overlay plain16=$here/overlays/plain16.json > "$OUT/rows2-$t.jsonl" 2>>"$OUT/bench.err"
    python3 bench/cpu/lib_ab.py --summary "$OUT/rows2-$t.jsonl"
done
