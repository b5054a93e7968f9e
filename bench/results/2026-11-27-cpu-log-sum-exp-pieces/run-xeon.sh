#!/bin/bash
# Device run: LOG_SUM_EXP in pieces (new) against HEAD (cur) on the 16-core Xeon, 16 and 2 threads,
# the libraries alternating; then the whole corpus with the new library at 16 threads while time lasts.
set -u
B=$(cd "$(dirname "$0")" && pwd)
cd "$B"
for v in cur new; do xz -dkf $v.so.0.xz; done
cd "$B/.."
start=$(date +%s)
for r in 1 2; do
  for t in 16 2; do
    order="cur new"; [ $((r % 2)) = 0 ] && order="new cur"
    for v in $order; do
      python3 bench/cpu/cpu_bench.py --hdml $B/$v.so.0 --roofline $B/cpu_roofline --threads $t --rounds 1 --cases 'log_sum_exp' 2>>$OUT/bench.err | sed "s/^{/{\"lib\": \"$v\", \"round\": $r, /" >> $OUT/lse-xeon-$t.jsonl
      echo "round $r threads $t $v done $(( $(date +%s) - start )) s"
    done
  done
done
python3 bench/cpu/cpu_bench.py --hdml $B/new.so.0 --roofline $B/cpu_roofline --threads 16 --rounds 1 2>>$OUT/bench.err | sed "s/^{/{\"lib\": \"new\", \"round\": 1, /" >> $OUT/all-xeon-16.jsonl
echo "all 16 done $(( $(date +%s) - start )) s"
