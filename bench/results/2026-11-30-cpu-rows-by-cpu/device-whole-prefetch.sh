#!/bin/bash
# rows=whole with a prefetch of each row 2 KiB ahead, tied to the row's start value (its bits OR a zero the
# prefetch returns, so the loads stay dense): `pf` (.device-bin/pf.so.0.xz) against 81ef31a (`new`, twice), at
# 16 and 2 threads, over rows of 16 (dense rows of a vector) and LOG_SUM_EXP over rows of 5 and 24 (the lane
# walk). First run (PREFIX=pf-try-): whole-prefetch.patch on 81ef31a, every rows=whole row of SUM, MIN/MAX and
# LOG_SUM_EXP; second (PREFIX=pf-): the commit's, dense rows of a vector only, every function and ARGMAX/ARGMIN.
# Output: $OUT/<PREFIX>corpus-<threads>.jsonl, <PREFIX>lse-<threads>.jsonl.
set -eu
here=bench/results/2026-11-30-cpu-rows-by-cpu
export LIBS="new new2=new pf" REPEATS=${REPEATS:-3} THREADS=${THREADS:-16 2}
prefix=${PREFIX:-pf-}
CASES='rows16' bash bench/cpu/device_run.sh pairs
for t in $THREADS; do mv "$OUT/pairs-$t.jsonl" "$OUT/${prefix}corpus-$t.jsonl"; done
CORPUS=$here/corpus-lse-rows.json CASES='rows(5|24)$' bash bench/cpu/device_run.sh pairs
for t in $THREADS; do mv "$OUT/pairs-$t.jsonl" "$OUT/${prefix}lse-$t.jsonl"; done
