#!/bin/bash
# On the GPU machine's CPU (device tool, carry .device-bin holding defaults.so.0.xz, the library built
# with the defaults, xeon.so.0.xz, the same sources built with -DHDML_TUNED=xeon-16core
# (outer_prefetch_min_bytes 32 MiB), and walk64/walk32.so.0.xz, that profile with the scans'
# walk_columns 64 / 32 added), lib_ab.py pairs at 16 and 2 threads, the defaults named twice (the noise):
#   ab.sh [min]   corpus.json: REDUCE and ARGMAX down the outer layout, 8-64 MiB, 10 repetitions
#   ab.sh walk    corpus-scans.json: outer scans through the row walk, 6 repetitions
set -u
here=$(dirname "$0")
for l in defaults xeon walk64 walk32; do [ -f .device-bin/$l.so.0.xz ] && xz -dkf .device-bin/$l.so.0.xz; done
case ${1:-min} in
min) corpus=corpus.json; repeats=10; libs="xeon=.device-bin/xeon.so.0" ;;
walk) corpus=corpus-scans.json; repeats=6; libs="walk64=.device-bin/walk64.so.0 walk32=.device-bin/walk32.so.0" ;;
*) echo "usage: ab.sh [min|walk]" >&2; exit 2 ;;
esac
for t in 16 2; do
    python3 bench/cpu/lib_ab.py --threads $t --repeats $repeats --corpus $here/$corpus \
        defaults=.device-bin/defaults.so.0 again=.device-bin/defaults.so.0 $libs \
        > $OUT/${1:-min}-$t.jsonl 2>> $OUT/err.log
    echo "threads $t done"
done
for t in 16 2; do echo "== ${1:-min} $t threads"; python3 bench/cpu/lib_ab.py --summary $OUT/${1:-min}-$t.jsonl; done
