#!/bin/bash
# On the GPU machine's CPU (device tool, carry .device-bin), lib_ab.py pairs over corpus.json (float32
# outer scans of 16-384 columns) at 16 and 2 threads, one library under dispatch overlays:
#   ab.sh [overlays]  defaults.so.0.xz (scan_walk_min_columns 512) against walk-min-{128,64,32}.json
#   ab.sh confirm     rule.so.0.xz (the walk from max(32, 32 x threads) columns) against walk-min-512.json
set -u
here=$(dirname "$0")
mode=${1:-overlays}
case $mode in
overlays) name=defaults; pairs="defaults min128 min64 min32"
          overlays="--overlay min128=$here/walk-min-128.json --overlay min64=$here/walk-min-64.json --overlay min32=$here/walk-min-32.json"
          out=xeon ;;
confirm)  name=rule; pairs="old again rule"
          overlays="--overlay old=$here/walk-min-512.json --overlay again=$here/walk-min-512.json"
          out=confirm ;;
*) echo "usage: ab.sh [overlays|confirm]" >&2; exit 2 ;;
esac
xz -dkf .device-bin/$name.so.0.xz
libs=""
for p in $pairs; do libs="$libs $p=.device-bin/$name.so.0"; done
for t in 16 2; do
    python3 bench/cpu/lib_ab.py --threads $t --repeats ${REPEATS:-4} --corpus $here/corpus.json $libs $overlays \
        > $OUT/$out-$t.jsonl 2>> $OUT/err.log
done
for t in 16 2; do echo "== $t threads"; python3 bench/cpu/lib_ab.py --summary $OUT/$out-$t.jsonl; done
