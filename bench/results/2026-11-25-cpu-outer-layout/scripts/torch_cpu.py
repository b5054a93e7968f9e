# PyTorch CPU on the shapes of corpus.json (cases whose name matches argv[2], if given), 2 and 16
# threads: JSON lines {case, threads, gbps} (or error).
import json, re, sys, time, torch
corpus = [c for c in json.load(open(sys.argv[1]))["cases"] if len(sys.argv) < 3 or re.search(sys.argv[2], c["case"])]
reduce_ops = {"SUM": lambda t, a: torch.sum(t, a), "MAX": lambda t, a: torch.amax(t, a),
              "LOG_SUM_EXP": lambda t, a: torch.logsumexp(t, a), "ARGMAX": lambda t, a: torch.argmax(t, a[0])}
def op(c):
    if c["op"] == "reduce": return lambda t: reduce_ops[c["function"]](t, tuple(c["axes"]))
    if c["op"] == "cumsum": return lambda t: torch.cumsum(t, c["axis"])
    if c["op"] == "split": return lambda t: [p.contiguous() for p in torch.split(t, c["parts"], c["axis"])]
    raise ValueError(c["op"])
for threads in (2, 16):
    torch.set_num_threads(threads)
    for c in corpus:
        dt = torch.float16 if c.get("type") == "float16" else torch.float32
        x = torch.rand(c["sizes"], dtype=torch.float32).to(dt)
        f = op(c)
        try:
            f(x)
        except Exception as e:
            print(json.dumps({"case": c["case"], "threads": threads, "error": str(e)[:120]}), flush=True)
            continue
        best = 1e9
        for _ in range(3):
            t0 = time.perf_counter(); n = 0
            while True:
                f(x); n += 1
                el = time.perf_counter() - t0
                if el > 0.2: break
            best = min(best, el / n)
        nbytes = x.numel() * x.element_size()
        print(json.dumps({"case": c["case"], "threads": threads, "gbps": nbytes / best / 1e9}), flush=True)
