#!/bin/bash
# On the GPU machine's CPU (device tool, carry .device-bin holding hdml.so.0.xz, a default
# build): lib_ab.py pairs of the defaults (named twice: the noise) and the same library under
# the xeon-16core profile's thresholds, over the short-row corpus of 2026-11-29, at 2 and 16
# threads (ROUND=2: files named -round2).
set -u
here=$(dirname "$0")
corpus=$here/../2026-11-29-cpu-row-vectors-prefetch/corpus-short-rows.json
xz -dkf .device-bin/hdml.so.0.xz
lib=.device-bin/hdml.so.0
for t in 2 16; do
    python3 bench/cpu/lib_ab.py --threads $t --repeats 6 --corpus $corpus \
        defaults=$lib again=$lib xeon=$lib --overlay xeon=schedules/tuned/xeon-16core.json \
        > $OUT/xeon-$t${ROUND:+-round$ROUND}.jsonl 2>> $OUT/err.log
    echo "threads $t done"
done
for f in $OUT/xeon-*.jsonl; do echo "== $f"; python3 bench/cpu/lib_ab.py --summary $f; done
