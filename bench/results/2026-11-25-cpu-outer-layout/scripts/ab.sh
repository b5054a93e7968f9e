#!/usr/bin/env bash
# Same-session A/B on the 16-core CPU, 16 and 2 threads, ROUNDS rounds (default 2).
# Each variant is LIB or LIB:VAR=VALUE (a library DIR/LIB/libhdml.so.0.xz, run with that
# environment variable): e.g. ab.sh DIR OUT old new:HDML_THREAD_POOL=halide new
set -u
d=$(realpath "$1"); out=$2; shift 2
for v in "$@"; do xz -dkf "$d/${v%%:*}/libhdml.so.0.xz"; done
for round in $(seq 1 "${ROUNDS:-2}"); do
  for v in "$@"; do
    lib=${v%%:*}; env=; [ "$lib" != "$v" ] && env=${v#*:}
    for t in 16 2; do
      env $env LD_LIBRARY_PATH="$d/$lib" HL_NUM_THREADS=$t "$d/hdml-tune-bench" "$d/corpus.json" --repeats 3 --min-seconds 0.1 |
        sed "s|^|{\"lib\": \"$v\", \"round\": $round, \"threads\": $t, \"r\": |; s|$|}|" >> "$out/ab.jsonl"
    done
  done
done
