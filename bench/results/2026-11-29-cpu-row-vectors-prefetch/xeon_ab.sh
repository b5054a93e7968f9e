#!/bin/bash
# On the GPU machine's CPU (device tool, carry .device-bin): lib_ab.py pairs of base.so.0.xz and pf.so.0.xz
# (.device-bin) over this folder's corpora at 2 and 16 threads; the long rows also with pf under rv1024.json.
set -u
here=$(dirname "$0")
for lib in base pf; do xz -dkf .device-bin/$lib.so.0.xz; done
for t in 2 16; do
    python3 bench/cpu/lib_ab.py --threads $t --repeats 6 --corpus $here/corpus-short-rows.json \
        base=.device-bin/base.so.0 pf=.device-bin/pf.so.0 > $OUT/xeon-short-$t.jsonl 2>> $OUT/err.log
    python3 bench/cpu/lib_ab.py --threads $t --repeats 6 --corpus $here/corpus-long-rows.json \
        base=.device-bin/base.so.0 pf=.device-bin/pf.so.0 pfrv=.device-bin/pf.so.0 --overlay pfrv=$here/rv1024.json \
        > $OUT/xeon-long-$t.jsonl 2>> $OUT/err.log
    echo "threads $t done"
done
for f in $OUT/xeon-*.jsonl; do echo "== $f"; python3 bench/cpu/lib_ab.py --summary $f; done
