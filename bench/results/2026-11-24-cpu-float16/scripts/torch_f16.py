# PyTorch CPU on the shapes of corpus.json: JSON lines {case, threads, gbps} (or error).
import json, sys, time, torch
corpus = json.load(open(sys.argv[1]))["cases"]
for threads in (2, 16):
    torch.set_num_threads(threads)
    for c in corpus:
        dt = torch.float16 if c.get("type") == "float16" else torch.float32
        x = torch.rand(c["sizes"], dtype=torch.float32).to(dt)
        if c["op"] == "cumsum":
            f = lambda t: torch.cumsum(t, c["axis"])
        else:
            axes = tuple(c["axes"])
            f = {"SUM": lambda t: torch.sum(t, axes), "LOG_SUM_EXP": lambda t: torch.logsumexp(t, axes)}[c["function"]]
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
