#!/bin/bash
# The Xeon's run of this record, from a folder in the repository's root (.device-bin) holding cur.so.0.xz
# and new.so.0.xz (libhdml.so.0 before and after, xz), t/ (arg_reduce_test, kernel_choice_test) and
# cpu_roofline: the ARGMAX tests on the CPU (16 threads) and CUDA, then the A/B at 16 and 2 threads
# into $OUT/xeon-argmax-{16,2}.jsonl.
set -u
B=$(cd "$(dirname "$0")" && pwd)
cd "$B"
for v in cur new; do xz -dkf $v.so.0.xz; done
cp new.so.0 t/libhdml.so.0
export LD_LIBRARY_PATH=$B/t
for t in arg_reduce_test kernel_choice_test; do ./t/$t > $OUT/$t.cpu.log 2>&1; echo "$t cpu rc=$? $(tail -1 $OUT/$t.cpu.log)"; done
HDML_TEST_DEVICE=cuda ./t/arg_reduce_test > $OUT/arg_reduce_test.cuda.log 2>&1; echo "arg_reduce_test cuda rc=$? $(tail -1 $OUT/arg_reduce_test.cuda.log)"
cd "$B/.."
for th in 16 2; do
  for r in 1 2; do
    for v in cur new; do
      python3 bench/cpu/cpu_bench.py --hdml $B/$v.so.0 --roofline $B/cpu_roofline --threads $th --rounds 1 --cases 'argmax' 2>>$OUT/bench.err | sed "s/^{/{\"lib\": \"$v\", \"round\": $r, /" >> $OUT/xeon-argmax-$th.jsonl
    done
  done
  echo "threads $th done $(date +%T)"
done
