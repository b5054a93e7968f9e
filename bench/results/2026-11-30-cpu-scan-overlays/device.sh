#!/bin/bash
# Dispatch overlays on the inner scans below goal at 16 and 2 threads of the GPU machine's Xeon, paired with the
# library itself (.device-bin/blocks.so.0.xz, aa9fac2) by bench/cpu/lib_ab.py: lines of 1024 in the vector scan
# (lw_off), float16 lines of 1024 in the line walk (f16lw), lines of 16 in the vector scan (l16off).
# Output: $OUT/scans-<threads>.jsonl.
set -eu
here=bench/results/2026-11-30-cpu-scan-overlays
bin=$(cd .device-bin && pwd)
xz -dkf "$bin/blocks.so.0.xz"
lib="$bin/blocks.so.0"
for t in ${THREADS:-16 2}; do
    python3 bench/cpu/lib_ab.py --threads "$t" --repeats "${REPEATS:-3}" \
        --cases '^(cumsum|cumprod)/f(16|32)/(inner|lines16)$' \
        def="$lib" def2="$lib" lw_off="$lib" f16lw="$lib" l16off="$lib" \
        --overlay lw_off=$here/overlays/lw_off.json --overlay f16lw=$here/overlays/f16lw.json \
        --overlay l16off=$here/overlays/l16off.json > "$OUT/scans-$t.jsonl" 2>>"$OUT/bench.err"
    python3 bench/cpu/lib_ab.py --summary "$OUT/scans-$t.jsonl"
done
