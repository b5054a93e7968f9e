#!/bin/bash
# On the GPU machine's CPU (device tool, carry .device-bin holding hdml.so.0.xz and cpu_roofline):
# bench/cpu/cpu_bench.py (hdml and PyTorch in one process) over the corpus cases that take
# rows=vectors (rows of 64; sums over rows of 1024, "inner"), the default library alone and under
# the xeon-16core profile's thresholds, alternated over 2 rounds at 2 and 16 threads.
set -u
xz -dkf .device-bin/hdml.so.0.xz
cases='rows64|reduce/sum/f(32|16)/inner$'
for r in 1 2; do
    for t in 2 16; do
        for profile in defaults xeon-16core; do
            overlay=""
            [ $profile = xeon-16core ] && overlay=schedules/tuned/xeon-16core.json
            HDML_DISPATCH_X86=$overlay python3 bench/cpu/cpu_bench.py --hdml .device-bin/hdml.so.0 \
                --roofline .device-bin/cpu_roofline --threads $t --rounds 1 --cases "$cases" 2>>$OUT/err.log |
                sed "s/^{/{\"profile\":\"$profile\",\"round\":$r,/" >> $OUT/peer-$t.jsonl
        done
    done
    echo "round $r done"
done
