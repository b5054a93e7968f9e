"""The measurement log: one JSON object per line, appended as each
measurement finishes, so an interrupted run loses at most the line it was
writing (a torn last line is skipped) and a rerun skips what is measured.

A record: {"platform", "machine", "family", "candidate": {name: value, ...}
(the numbers that differ from the defaults; {} is the defaults), "case",
"bytes", "seconds": [one per repeat], "pass": n (measure's pass), "boot": the
machine's boot id, "kernels": what the case called, "stage": "search" or
"confirm" (absent: search), "round": a confirmation round's id, "date"}.

Timings compare only within one boot of one machine: another node of the same
model, or the same one after a reboot, can differ by more than a candidate
gains. So a rerun resumes only what this boot measured, and apply judges the
latest boot's measurements."""
import json
import statistics

FIELDS = ("platform", "machine", "family", "candidate", "case", "bytes", "seconds")


def read(path):
    """The log's complete records, in order; a line that does not parse (a
    write cut short) or lacks a field is skipped."""
    records = []
    try:
        f = open(path)
    except FileNotFoundError:
        return records
    with f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if isinstance(r, dict) and all(k in r for k in FIELDS) and r["seconds"]:
                records.append(r)
    return records


def candidate_key(candidate):
    return tuple(sorted(candidate.items()))


def boot_id():
    """This boot of this machine (Linux), or None where it cannot be read."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            return f.read().strip()
    except OSError:
        return None


def latest_boot(records):
    """The records of the boot that wrote the last record: one session of
    measurements that compare with each other."""
    if not records:
        return []
    boot = records[-1].get("boot")
    return [r for r in records if r.get("boot") == boot]


def stage(record):
    """"search" (a round of one-step moves) or "confirm" (the search's choices
    measured again, alone against the defaults)."""
    return record.get("stage", "search")


def append(path, *records):
    """Appends records in one write (after a torn last line, on a line of their own)."""
    text = "".join(json.dumps(r, sort_keys=True) + "\n" for r in records)
    with open(path, "a+") as f:
        f.seek(0, 2)
        if f.tell() > 0:
            f.seek(f.tell() - 1)
            if f.read(1) != "\n":
                text = "\n" + text
        f.write(text)
        f.flush()


def medians(records):
    """{(candidate key, case): (median seconds, bytes, fastest, slowest)} over
    every record of that pair (repeats of all passes pooled)."""
    pooled = {}
    for r in records:
        k = (candidate_key(r["candidate"]), r["case"])
        pooled.setdefault(k, ([], r["bytes"]))[0].extend(r["seconds"])
    return {k: (statistics.median(s), nbytes, min(s), max(s)) for k, (s, nbytes) in pooled.items()}
