#!/bin/bash
# On the GPU machine's CPU (device tool, carry .device-bin holding hdml.so.0.xz, a default build):
# lib_ab.py pairs at 2 and 16 threads, the default library against itself under dispatch overlays.
#   xeon_ab.sh [short]  the short-row corpus of 2026-11-29: the defaults (named twice: the noise)
#                       and the xeon-16core profile's thresholds; ROUND=2 names the files -round2
#   xeon_ab.sh extremes the long-row corpus (MAX/ARGMAX/L2/LOG_SUM_EXP over rows of 128-1024): the
#                       defaults, the profile's first threshold alone (profile-1024.json), and with
#                       reduce_row_vectors_max_extreme_row 128 and 256
set -u
here=$(dirname "$0")
corpora=$here/../2026-11-29-cpu-row-vectors-prefetch
xz -dkf .device-bin/hdml.so.0.xz
lib=.device-bin/hdml.so.0
case ${1:-short} in
short)
    corpus=$corpora/corpus-short-rows.json out=xeon
    libs=(defaults=$lib again=$lib xeon=$lib --overlay xeon=schedules/tuned/xeon-16core.json) ;;
extremes)
    corpus=$corpora/corpus-long-rows.json out=extremes
    libs=(defaults=$lib profile=$lib x128=$lib x256=$lib --overlay profile=$here/profile-1024.json
          --overlay x128=$here/extremes128.json --overlay x256=$here/extremes256.json) ;;
*) echo "usage: xeon_ab.sh [short|extremes]" >&2; exit 2 ;;
esac
for t in 2 16; do
    python3 bench/cpu/lib_ab.py --threads $t --repeats 6 --corpus $corpus "${libs[@]}" \
        > $OUT/$out-$t${ROUND:+-round$ROUND}.jsonl 2>> $OUT/err.log
    echo "threads $t done"
done
for f in $OUT/$out-*.jsonl; do echo "== $f"; python3 bench/cpu/lib_ab.py --summary $f; done
