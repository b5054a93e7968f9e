#!/bin/bash
# The Xeon's run of this record, from a folder in the repository's root (.device-bin) holding cur.so.0.xz and
# new.so.0.xz (libhdml.so.0 before and after, xz), t/ (cumulative_test, kernel_choice_test),
# cpu_roofline and corpus.json: the scan tests on the CPU (16 threads) and CUDA, then the A/B
# at 16 and 2 threads into $OUT/xeon-scan-{16,2}.jsonl.
set -u
B=$(cd "$(dirname "$0")" && pwd)
cd "$B"
for v in cur new; do xz -dkf $v.so.0.xz; done
cp new.so.0 t/libhdml.so.0
export LD_LIBRARY_PATH=$B/t
nproc; lscpu | grep -i "model name"; nvidia-smi --query-gpu=name --format=csv,noheader
for t in cumulative_test kernel_choice_test; do ./t/$t > $OUT/$t.cpu.log 2>&1; echo "$t cpu rc=$? $(tail -1 $OUT/$t.cpu.log)"; done
HDML_TEST_DEVICE=cuda ./t/cumulative_test > $OUT/cumulative_test.cuda.log 2>&1; echo "cumulative_test cuda rc=$? $(tail -1 $OUT/cumulative_test.cuda.log)"
cd "$B/.."
for th in 16 2; do
  for r in 1 2; do
    for v in cur new; do
      python3 bench/cpu/cpu_bench.py --hdml $B/$v.so.0 --roofline $B/cpu_roofline --threads $th --rounds 1 --corpus $B/corpus.json 2>>$OUT/bench.err | sed "s/^{/{\"lib\": \"$v\", \"round\": $r, /" >> $OUT/xeon-scan-$th.jsonl
    done
  done
  echo "threads $th done $(date +%T)"
done
