#!/usr/bin/env bash
# Same-session A/B on the 16-core CPU: old and new libraries alternating, 2 and 16 threads.
set -u
d=$(realpath "$(dirname "$0")")
for v in old new; do xz -dk "$d/$v/libhdml.so.0.xz"; done
for round in 1 2; do
  for v in old new; do
    for t in 16 2; do
      LD_LIBRARY_PATH=$d/$v HL_NUM_THREADS=$t "$d/hdml-tune-bench" "$d/corpus.json" --repeats 3 --min-seconds 0.2 |
        sed "s/^/{\"lib\": \"$v\", \"round\": $round, \"threads\": $t, \"r\": /; s/$/}/"
    done
  done
done
