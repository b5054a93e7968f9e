#!/bin/bash
# The GPU machine's Xeon, paired by bench/cpu/lib_ab.py (bench/cpu/device_run.sh pairs): the library before
# (def, 19ffd07) against itself (def2), the library with LOG_SUM_EXP's shift once per vector of rows and the
# "dispatch_by_cpu" rows (new, which takes the intel_avx512 rows there), and new under an overlay putting the
# three rows' thresholds back (shift: the shift alone), single-ISA AVX-512 builds in .device-bin.
# THREADS (default 16) at a time: the short-row, float16-scan and LOG_SUM_EXP cases of bench/cpu/corpus.json,
# then this folder's corpus of LOG_SUM_EXP over rows of 5-64. Output: $OUT/pairs-<threads>.jsonl, lse-<threads>.jsonl.
set -eu
here=bench/results/2026-11-30-cpu-rows-by-cpu
export LIBS="def def2=def new shift=new" OVERLAYS="shift=$here/plain-dispatch.json" REPEATS=${REPEATS:-3} THREADS=${THREADS:-16}
CASES='rows|lines16|log_sum_exp|cumsum/f16' bash bench/cpu/device_run.sh pairs
for t in $THREADS; do mv "$OUT/pairs-$t.jsonl" "$OUT/corpus-$t.jsonl"; done
CORPUS=$here/corpus-lse-rows.json bash bench/cpu/device_run.sh pairs
for t in $THREADS; do mv "$OUT/pairs-$t.jsonl" "$OUT/lse-$t.jsonl"; done
