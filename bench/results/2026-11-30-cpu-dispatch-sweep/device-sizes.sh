#!/bin/bash
# copy_pieces_block_bytes 256 KiB (the x86 default) against 512 KiB and 1 MiB over SPLIT/JOIN from 1 MiB to
# 256 MiB (copies-sizes.json), paired by bench/cpu/lib_ab.py on one library (.device-bin/new.so.0.xz) at 16 and
# 2 threads of the GPU machine's Xeon. Output: $OUT/sizes-<threads>.jsonl.
set -eu
here=bench/results/2026-11-30-cpu-dispatch-sweep
bin=$(cd .device-bin && pwd)
xz -dkf "$bin/new.so.0.xz"
lib="$bin/new.so.0"
for t in ${THREADS:-16 2}; do
    python3 bench/cpu/lib_ab.py --threads "$t" --repeats "${REPEATS:-3}" --corpus $here/copies-sizes.json \
        def="$lib" def2="$lib" blk512k="$lib" blk1m="$lib" \
        --overlay blk512k=$here/overlays/blk512k.json --overlay blk1m=$here/overlays/blk1m.json \
        > "$OUT/sizes-$t.jsonl" 2>>"$OUT/bench.err"
    python3 bench/cpu/lib_ab.py --summary "$OUT/sizes-$t.jsonl"
done
