#!/bin/bash
# On the GPU machine's CPU (device tool, carry .device-bin holding base.so.0.xz, the library before,
# new.so.0.xz, the one with outer_prefetch_bytes 2048, and cpu_roofline), at 2 and 16 threads:
#   outer_ab.sh [reduce]  lib_ab.py pairs over corpus-outer.json (REDUCE and ARGMAX down the outer layout),
#                         the library before named twice (the noise); ROUND=2 names the files -round2
#   outer_ab.sh sizes     the same pairs over corpus-sizes.json (1-32 MiB: the threshold), 10 repetitions
#   outer_ab.sh peer      cpu_bench.py: the new library against PyTorch on bench/cpu/corpus.json's outer cases
set -u
here=$(dirname "$0")
for l in base new; do xz -dkf .device-bin/$l.so.0.xz; done
case ${1:-reduce} in
reduce)
    for t in 2 16; do
        python3 bench/cpu/lib_ab.py --threads $t --repeats 6 --corpus $here/corpus-outer.json \
            before=.device-bin/base.so.0 again=.device-bin/base.so.0 prefetch=.device-bin/new.so.0 \
            > $OUT/xeon-$t${ROUND:+-round$ROUND}.jsonl 2>> $OUT/err.log
        echo "threads $t done"
    done
    for f in $OUT/xeon-*.jsonl; do echo "== $f"; python3 bench/cpu/lib_ab.py --summary $f; done ;;
sizes)
    for t in 2 16; do
        python3 bench/cpu/lib_ab.py --threads $t --repeats 10 --corpus $here/corpus-sizes.json \
            before=.device-bin/base.so.0 again=.device-bin/base.so.0 prefetch=.device-bin/new.so.0 \
            > $OUT/sizes-$t.jsonl 2>> $OUT/err.log
    done
    for f in $OUT/sizes-*.jsonl; do echo "== $f"; python3 bench/cpu/lib_ab.py --summary $f; done ;;
peer)
    for t in 2 16; do
        python3 bench/cpu/cpu_bench.py --hdml .device-bin/new.so.0 --roofline .device-bin/cpu_roofline \
            --threads $t --rounds 2 --cases '/outer$' > $OUT/peer-$t.jsonl 2>> $OUT/err.log
    done
    python3 bench/cpu/table.py $OUT/peer-2.jsonl $OUT/peer-16.jsonl ;;
*) echo "usage: outer_ab.sh [reduce|sizes|peer]" >&2; exit 2 ;;
esac
