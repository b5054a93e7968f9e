#!/bin/bash
# Device run: the copies (SPLIT, JOIN, the last-axis GATHER) at 16 threads, 3 passes of each library alternating.
set -u
B=$(cd "$(dirname "$0")" && pwd)
cd "$B"
for v in cur new; do xz -dkf $v.so.0.xz; done
cd "$B/.."
start=$(date +%s)
for r in 1 2 3; do
  order="cur new"; [ $((r % 2)) = 0 ] && order="new cur"
  for v in $order; do
    python3 bench/cpu/cpu_bench.py --hdml $B/$v.so.0 --roofline $B/cpu_roofline --threads 16 --rounds 1 --cases 'split|join|last_axis' 2>>$OUT/bench.err | sed "s/^{/{\"lib\": \"$v\", \"round\": $r, /" >> $OUT/copies-xeon-16.jsonl
    echo "round $r $v done $(( $(date +%s) - start )) s"
  done
  [ $(( $(date +%s) - start )) -gt 150 ] && break
done
