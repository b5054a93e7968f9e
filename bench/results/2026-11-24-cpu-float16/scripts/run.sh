#!/usr/bin/env bash
# 16-core CPU: hdml at 2 and 16 threads over corpus.json (JSON lines, tagged
# with the library's label), then PyTorch on the same shapes (with --torch).
# Run from a packed bin dir (tools/gpu-check.sh --pack build .device-bin, plus
# build/tools/tune/hdml-tune-bench) with this folder copied to <bin>/f16:
#   <bin>/f16/scripts/run.sh LABEL [--torch]
set -u
bin=$(realpath "$(dirname "$0")/../..")
export LD_LIBRARY_PATH=$bin
lscpu | grep -E "Model name|^CPU\(s\)|Flags" | sed 's/Flags:.*\(f16c\).*\(avx512f\).*/Flags: ... \1 ... \2 .../'
for t in 2 16; do
  HL_NUM_THREADS=$t "$bin/hdml-tune-bench" "$bin/f16/corpus.json" --repeats 3 --min-seconds 0.2 |
    sed "s/^/{\"lib\": \"$1\", \"threads\": $t, \"r\": /; s/$/}/"
done
[[ "${2:-}" == "--torch" ]] && python3 "$bin/f16/scripts/torch_f16.py" "$bin/f16/corpus.json"
exit 0
