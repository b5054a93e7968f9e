#!/usr/bin/env python3
"""SUM f32 over 256 MiB filled with random, +0, -0 and cancelling data: what the zero-sum sign check costs."""
import json, os, sys, time
sys.path.insert(0, sys.argv[2])
import torch
from hdml_ctypes import Hdml
torch.set_num_threads(int(os.environ.get("HL_NUM_THREADS", "2")))
h = Hdml(sys.argv[1], torch, device="cpu")
N = 64 << 20
cases = {"inner": ([N // 1024, 1024], (1,)), "outer": ([N // 1024, 1024], (0,)), "all": ([N // 1024, 1024], (0, 1)),
         "rows16": ([N // 16, 16], (1,))}
def per_call(fn, s=0.5):
    fn(); t0 = time.perf_counter(); n = 0
    while time.perf_counter() - t0 < s: fn(); n += 1
    return (time.perf_counter() - t0) / n
for name, (sizes, dims) in cases.items():
    for fill in ["random", "+0", "-0", "cancelling"]:
        if fill == "random": x = torch.rand(sizes)
        elif fill == "+0": x = torch.zeros(sizes)
        elif fill == "-0": x = -torch.zeros(sizes)
        else:
            x = torch.ones(sizes); x.view(-1)[1::2] = -1; x.view(-1)[0::2] = -1; x.view(-1)[1::2] = 1
            if name == "outer": x[1::2] = -x[1::2]  # columns: -1, 1, -1, ...
        kept = [1 if d in dims else s for d, s in enumerate(sizes)]
        out = torch.empty(kept)
        run = h.reduce("SUM", x, dims, out)
        run(); ref = x.double().sum(dims, keepdim=True).float()
        if fill == "-0": ref = -ref  # IEEE: a sum of -0.0s alone is -0.0
        ok = torch.equal(out, ref) and torch.equal(torch.signbit(out), torch.signbit(ref)) if fill != "random" else True
        t = min(per_call(run) for _ in range(3))
        print(json.dumps({"case": name, "fill": fill, "GB/s": round(x.numel() * 4 / t / 1e9, 1), "ok": ok}), flush=True)
