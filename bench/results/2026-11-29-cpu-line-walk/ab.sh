#!/usr/bin/env bash
# Paired A/B of two hdml libraries on this record's corpus (bench/cpu/lib_ab.py),
# at each thread count given: ab.sh OLD_LIB NEW_LIB THREADS... > out.jsonl
# OLD_LIB is the library before the line walk (05d706c), NEW_LIB the one with it;
# PYTHON names an interpreter with torch (default python3).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../../.."
old="$1" new="$2"
shift 2
for threads in "$@"; do
    "${PYTHON:-python3}" "$root/bench/cpu/lib_ab.py" --threads "$threads" --repeats 4 --corpus "$here/corpus.json" \
        before="$old" after="$new"
done
