#!/bin/bash
# Device A/B: libraries LIBS (.device-bin/<lib>.so.0.xz) alternated ROUNDS times over the cases CASES,
# at each thread count of THREADS; one JSON line per case, tagged with the library and round.
set -u
B=$(cd "$(dirname "$0")" && pwd)
for lib in ${LIBS:-def new}; do xz -dkf "$B/$lib.so.0.xz"; done
cd "$B/.."
start=$(date +%s)
for r in $(seq ${ROUNDS:-3}); do
  for t in ${THREADS:-16 2}; do
    for lib in ${LIBS:-def new}; do
      python3 bench/cpu/cpu_bench.py --hdml "$B/$lib.so.0" --roofline "$B/cpu_roofline" --threads $t --rounds 1 \
        --cases "$CASES" 2>>"$OUT/bench.err" | sed "s/^{/{\"lib\":\"$lib\",\"round\":$r,/" >> "$OUT/ab-$t.jsonl"
    done
  done
  echo "round $r done $(( $(date +%s) - start )) s"
done
