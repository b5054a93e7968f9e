#!/bin/bash
# Device run: the whole CPU corpus at 16 threads, one pass of each library (cur: HEAD, new: iterations dealt round the threads).
set -u
B=$(cd "$(dirname "$0")" && pwd)
cd "$B"
for v in cur new; do xz -dkf $v.so.0.xz; done
cd "$B/.."
start=$(date +%s)
for v in new cur; do
  python3 bench/cpu/cpu_bench.py --hdml $B/$v.so.0 --roofline $B/cpu_roofline --threads 16 --rounds 1 2>>$OUT/bench.err | sed "s/^{/{\"lib\": \"$v\", \"round\": 3, /" >> $OUT/xeon-16-all.jsonl
  echo "$v done $(( $(date +%s) - start )) s"
done
