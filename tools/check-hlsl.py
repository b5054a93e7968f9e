#!/usr/bin/env python3
"""Compiles the HLSL of every D3D12 kernel with an independent front end.

Halide 14's d3d12compute backend embeds each pipeline's HLSL module as text in
the kernel's object; Halide's runtime hands it to D3DCompile (cs_5_1) on the
user's machine, so a kernel that Microsoft's compiler would reject fails only
there. This takes the module out of every kernel library the manifest lists for
d3d12 (<build>/generated/hdml/kernels_d3d12.h), makes the two changes that
D3DCompile does not need (Halide prints MSVC's float literals 1.#IND and 1.#INF,
and the runtime defines __GROUPSHARED_SIZE_IN_BYTES when it compiles), and
compiles each entry point to SPIR-V with glslangValidator's HLSL mode.

    tools/check-hlsl.py <build-dir> [--keep DIR]    (--keep: write the .hlsl files there)
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

MODULE_START = b"#pragma warning( disable : 3078 )"  # the first line of every module Halide 14 writes
ENTRY = re.compile(r"\[\s*numthreads\([^)]*\)\s*\]\s*void\s+(\w+)\s*\(")
# What the runtime defines: the block's shared memory, at most D3D12's 32 KiB.
GROUPSHARED_BYTES = 32768
LITERALS = [("-1.#INF", "(-asfloat(0x7f800000u))"), ("+1.#INF", "asfloat(0x7f800000u)"),
            ("1.#INF", "asfloat(0x7f800000u)"), ("1.#IND", "asfloat(0x7fc00000u)")]


def kernel_names(build):
    listing = os.path.join(build, "generated", "hdml", "kernels_d3d12.h")
    with open(listing) as f:
        return re.findall(r'^#include "(.*)\.h"$', f.read(), re.M)


def modules_of(library):
    """The HLSL modules embedded in a static library (NUL-terminated strings)."""
    with open(library, "rb") as f:
        data = f.read()
    modules, start = [], data.find(MODULE_START)
    while start >= 0:
        end = data.index(b"\0", start)
        modules.append(data[start:end].decode())
        start = data.find(MODULE_START, end)
    return modules


def normalised(source):
    for msvc, portable in LITERALS:
        source = source.replace(msvc, portable)
    return source


def compile_entry(path, entry):
    result = subprocess.run(["glslangValidator", "-D", "-V", "-S", "comp", "-e", entry,
                             f"-D__GROUPSHARED_SIZE_IN_BYTES={GROUPSHARED_BYTES}", "-o", os.devnull, path],
                            capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build")
    parser.add_argument("--keep", help="write the normalised .hlsl files into this directory")
    args = parser.parse_args()

    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        return check(args.build, args.keep)
    with tempfile.TemporaryDirectory(prefix="hdml-hlsl-") as scratch:
        return check(args.build, scratch)


def check(build, out_dir):
    jobs, problems = [], []
    names = kernel_names(build)
    for name in names:
        # A Windows build's kernel objects, or a Linux build's imported Windows libraries.
        candidates = [os.path.join(build, name + suffix) for suffix in (".obj", ".lib")]
        library = next((c for c in candidates if os.path.isfile(c)), candidates[0])
        if not os.path.isfile(library):
            problems.append(f"{name}: no kernel object or library {library}")
            continue
        modules = modules_of(library)
        if len(modules) != 1:
            problems.append(f"{name}: {len(modules)} HLSL modules in {library}, expected 1")
            continue
        source = normalised(modules[0])
        entries = ENTRY.findall(source)
        if not entries:
            problems.append(f"{name}: no entry point ([numthreads] void ...) in its HLSL")
            continue
        path = os.path.join(out_dir, name + ".hlsl")
        with open(path, "w") as f:
            f.write(source)
        jobs += [(name, path, entry) for entry in entries]

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = pool.map(lambda job: (job, compile_entry(job[1], job[2])), jobs)
        for (name, path, entry), (code, log) in results:
            if code != 0:
                problems.append(f"{name}: entry {entry} rejected by glslang:\n{log.strip()}")

    for problem in problems:
        print(problem)
    print(f"d3d12: {len(names)} kernels, {len(jobs)} entry points compiled by glslang (HLSL to SPIR-V), "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
