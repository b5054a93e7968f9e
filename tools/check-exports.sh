#!/usr/bin/env bash
# Checks that a built libhdml exports exactly the C API that runtime/hdml.map
# lists (the Halide runtime and the kernels stay inside), for a Linux
# libhdml.so or a Windows hdml.dll: check-exports.sh <library>...
set -euo pipefail
cd "$(dirname "$0")/.."
expected=$(sed -n '/global:/,/local:/s/^ *\([A-Za-z_][A-Za-z0-9_]*\);$/\1/p' runtime/hdml.map | sort)
status=0
for library in "$@"; do
    case "$library" in
        *.dll) exported=$(x86_64-w64-mingw32-objdump -p "$library" |
                              sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/s/^\t\[ *[0-9]*\] \(.*\)$/\1/p' | sort) ;;
        *) exported=$(nm -D --defined-only "$library" | awk '{print $3}' | sort) ;;
    esac
    if [ "$exported" = "$expected" ]; then
        echo "$library: exports the $(echo "$expected" | wc -l) functions of runtime/hdml.map, nothing else"
    else
        echo "$library: exports differ from runtime/hdml.map (< expected, > exported):"
        diff <(echo "$expected") <(echo "$exported") || true
        status=1
    fi
done
exit $status
