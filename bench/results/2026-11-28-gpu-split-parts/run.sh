#!/usr/bin/env bash
# On the GPU machine (`run.sh OUT`, from the repository root, binaries in .device-bin):
# the CUDA split/join suites, then SPLIT with split_parts on (each library in
# .device-bin/variants/*/) and off (copy_parts_min_pieces = 0: a piece per launch),
# three interleaved rounds, and the launch rates.
set -u
OUT=$1
RES=$(mktemp -d)
source bench/results/2026-11-28-gpu-join-parts/suites.sh
echo '{"dispatch": {"copy_parts_min_pieces": 0}}' > /tmp/off.json
lib=.device-bin/libhdml.so.0
python3 bench/results/2026-11-27-gpu-join-launches/launch_rate.py $lib split > "$RES/rate_on.txt"
HDML_DISPATCH_CUDA=/tmp/off.json python3 bench/results/2026-11-27-gpu-join-launches/launch_rate.py $lib split > "$RES/rate_off.txt"
paste -d'\n' "$RES/rate_on.txt" "$RES/rate_off.txt"
for round in 1 2 3; do
    python3 bench/cuda/gpu_bench.py --hdml $lib --only "SPLIT" --json "$RES/split_on_$round.json" > /dev/null 2>&1
    HDML_DISPATCH_CUDA=/tmp/off.json python3 bench/cuda/gpu_bench.py --hdml $lib --only "SPLIT" --json "$RES/split_off_$round.json" > /dev/null 2>&1
    for v in .device-bin/variants/*/; do
        mkdir -p "$RES/variants/$(basename $v)"
        python3 bench/cuda/gpu_bench.py --hdml $v/libhdml.so.0 --only "SPLIT.*64" \
            --json "$RES/variants/$(basename $v)/split_on_$round.json" > /dev/null 2>&1
    done
done
python3 bench/results/2026-11-28-gpu-join-parts/compare.py --op split "$RES"
for v in "$RES"/variants/*/; do echo "== $(basename $v)"; python3 bench/results/2026-11-28-gpu-join-parts/compare.py --op split "$v" "$RES" | grep "64"; done
nvidia-smi --query-gpu=name --format=csv,noheader > "$RES/gpu.txt"
tar -C "$RES" -czf "$OUT/results.tgz" .
