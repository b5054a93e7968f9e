# On the GPU machine's CPU: scan_line_chunks_min_bytes. The new library as
# built (lines under 1 MiB walked whole) against the same library with every
# line of fewer lines than threads in chunks (all-chunks.json), 16 and 2 threads.
set -x
cd .device-bin && xz -dk -f period.so.0.xz; cd ..
R=bench/results/2026-11-30-cpu-period-walk
D=.device-bin
CORPUS=$R/${CORPUS_NAME:-threshold-corpus}.json REPEATS=5 bash $R/../2026-11-30-cpu-row-walk-prefetch/ab.sh 16 2 -- \
    built=$D/period.so.0 chunks=$D/period.so.0 --overlay chunks=$R/all-chunks.json > $OUT/${CORPUS_NAME:-threshold-corpus}.jsonl
python3 bench/cpu/lib_ab.py --summary $OUT/${CORPUS_NAME:-threshold-corpus}.jsonl
