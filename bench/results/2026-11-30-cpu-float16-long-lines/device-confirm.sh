# On the GPU machine's CPU, after the first run (device.sh): the library
# before this change (base: eb8faaa, single-ISA AVX-512) and with it (new:
# float16 lines from 2^20 in chunks), new again with the xeon-16core
# profile's overlay (xeon: from 65536), paired at 16 and 2 threads over
# corpus.json; then new against PyTorch on peer-corpus.json, both overlays.
set -x
for f in s26base f16def; do xz -dk -f .device-bin/$f.so.0.xz; done
R=bench/results/2026-11-30-cpu-float16-long-lines
B=.device-bin/s26base.so.0
N=.device-bin/f16def.so.0
for t in 2 16; do .device-bin/cpu_roofline --threads $t 2>&1 | tail -2; done > $OUT/roofline-confirm.jsonl
for t in 16 2; do
    python3 bench/cpu/lib_ab.py --threads $t --repeats 3 --corpus $R/corpus.json base=$B new=$N xeon=$N \
        --overlay xeon=$R/xeon-profile.json > $OUT/xeon-confirm-$t.jsonl
    python3 bench/cpu/lib_ab.py --summary $OUT/xeon-confirm-$t.jsonl
done
for t in 16 2; do
    python3 bench/cpu/cpu_bench.py --hdml $N --roofline .device-bin/cpu_roofline --threads $t \
        --corpus $R/peer-corpus.json --rounds 2 > $OUT/xeon-peer-$t.jsonl
    python3 bench/cpu/table.py $OUT/xeon-peer-$t.jsonl
    HDML_DISPATCH_X86=$R/xeon-profile.json python3 bench/cpu/cpu_bench.py --hdml $N \
        --roofline .device-bin/cpu_roofline --threads $t --corpus $R/peer-corpus.json --rounds 2 \
        > $OUT/xeon-peer-profile-$t.jsonl
    python3 bench/cpu/table.py $OUT/xeon-peer-profile-$t.jsonl
done
