#!/usr/bin/env bash
# Paired A/B of hdml libraries on this record's corpus (bench/cpu/lib_ab.py) at
# each thread count given: ab.sh THREADS... -- NAME=LIB NAME=LIB... > out.jsonl
# (the first library is the baseline). PYTHON names an interpreter with torch
# (default python3); REPEATS the repetitions (default 4); CORPUS another
# record's corpus (default this one's).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../../.."
threads=()
while [ "$1" != "--" ]; do threads+=("$1"); shift; done
shift
for t in "${threads[@]}"; do
    "${PYTHON:-python3}" "$root/bench/cpu/lib_ab.py" --threads "$t" --repeats "${REPEATS:-4}" \
        --corpus "${CORPUS:-$here/corpus.json}" "$@"
done
