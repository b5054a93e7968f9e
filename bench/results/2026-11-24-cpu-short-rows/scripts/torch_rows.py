# PyTorch CPU on the same shapes as corpus.json: JSON lines {case, threads, gbps}.
import json, sys, time, torch
corpus = json.load(open(sys.argv[1]))["cases"]
for threads in (2, 16):
    torch.set_num_threads(threads)
    for c in corpus:
        dt = torch.float16 if c.get("type") == "float16" else torch.float32
        x = torch.rand(c["sizes"], dtype=torch.float32).to(dt)
        f = {"SUM": lambda t: torch.sum(t, 1), "MAX": lambda t: torch.amax(t, 1),
             "LOG_SUM_EXP": lambda t: torch.logsumexp(t, 1), "ARGMAX": lambda t: torch.argmax(t, 1)}[c["function"]]
        f(x)
        best = 1e9
        for _ in range(5):
            t0 = time.perf_counter(); n = 0
            while True:
                f(x); n += 1
                el = time.perf_counter() - t0
                if el > 0.2: break
            best = min(best, el / n)
        nbytes = x.numel() * x.element_size()
        print(json.dumps({"case": c["case"], "threads": threads, "gbps": nbytes / best / 1e9}), flush=True)
