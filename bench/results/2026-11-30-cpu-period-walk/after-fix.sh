# On the GPU machine's CPU, after a line of one chunk stopped totalling it
# (scan_line_chunks_min_bytes 4 KiB): the first build (period: 1 MiB, the
# one-chunk totals) against the final one (final) and the final one with no
# line in chunks (whole: no-chunks.json), at 16 and 2 threads.
set -x
cd .device-bin && for f in period final; do xz -dk -f $f.so.0.xz; done; cd ..
R=bench/results/2026-11-30-cpu-period-walk
D=.device-bin
CORPUS=$R/threshold-corpus-3.json REPEATS=5 bash $R/../2026-11-30-cpu-row-walk-prefetch/ab.sh 16 2 -- \
    period=$D/period.so.0 final=$D/final.so.0 whole=$D/final.so.0 --overlay whole=$R/no-chunks.json > $OUT/after-fix.jsonl
python3 bench/cpu/lib_ab.py --summary $OUT/after-fix.jsonl
