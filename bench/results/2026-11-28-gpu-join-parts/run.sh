#!/usr/bin/env bash
# On the GPU machine: CUDA suites (split/join, kernel choice, special values), then JOIN with copy_parts on/off, launch rates.
cd .device-bin && xz -dk -f libhdml.so.0.xz && cd ..
OUT=$1
RES=$(mktemp -d)
source bench/results/2026-11-28-gpu-join-parts/suites.sh
echo '{"dispatch": {"copy_parts_min_pieces": 0}}' > /tmp/off.json
python3 bench/results/2026-11-27-gpu-join-launches/launch_rate.py .device-bin/libhdml.so.0 > "$RES/launch_on.txt"
HDML_DISPATCH_CUDA=/tmp/off.json python3 bench/results/2026-11-27-gpu-join-launches/launch_rate.py .device-bin/libhdml.so.0 > "$RES/launch_off.txt"
paste -d'\n' "$RES/launch_on.txt" "$RES/launch_off.txt" | grep "hdml JOIN 64"
for round in 1 2 3; do
    python3 bench/cuda/gpu_bench.py --hdml .device-bin/libhdml.so.0 --only "JOIN" --json "$RES/join_on_$round.json" > /dev/null 2>&1
    HDML_DISPATCH_CUDA=/tmp/off.json python3 bench/cuda/gpu_bench.py --hdml .device-bin/libhdml.so.0 --only "JOIN" --json "$RES/join_off_$round.json" > /dev/null 2>&1
done
python3 bench/results/2026-11-28-gpu-join-parts/compare.py "$RES"
nvidia-smi --query-gpu=name --format=csv,noheader > "$RES/gpu.txt"
tar -C "$RES" -czf "$OUT/results.tgz" .
