#!/bin/bash
# Device run: the whole CPU corpus on the 16-core Xeon with main's library, 3 rounds at 16 threads
# (and, with ROUNDS2, rounds at 2 threads), for bench/README's tables.
set -u
B=$(cd "$(dirname "$0")" && pwd)
cd "$B"
xz -dkf new.so.0.xz
cd "$B/.."
start=$(date +%s)
for t in ${THREADS:-16 2}; do
  python3 bench/cpu/cpu_bench.py --hdml $B/new.so.0 --roofline $B/cpu_roofline --threads $t --rounds ${ROUNDS:-3} 2>>$OUT/bench.err > $OUT/xeon-table-$t${SUFFIX:-}.jsonl
  echo "threads $t done $(( $(date +%s) - start )) s"
done
