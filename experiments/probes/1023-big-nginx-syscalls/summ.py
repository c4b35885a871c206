# summ.py OUT: per-answer system calls, context switches and CPU from run.sh's files.
import json, sys
out = sys.argv[1]
for s in ("pure-serve", "nginx"):
    ld = json.load(open(f"{out}/{s}-load.json"))
    rate = ld["ok_per_s"]
    rows, clock = [], None
    for l in open(f"{out}/{s}-stat.csv"):
        p = l.strip().split(",")
        if len(p) < 3 or l.startswith("#"):
            continue
        try:
            v = float(p[0])
        except ValueError:
            continue
        if p[2] == "task-clock":
            clock = v
        elif v > 0:
            rows.append((p[2].split(":")[-1], v))
    n = rate * 3  # answers in the 3 s perf stat counted, at the run's mean rate
    print(f"{s}: {rate:.0f} answers/s; server CPU {clock / n * 1000:.1f} us per answer (share {clock / 3000:.2f})")
    for ev, v in rows:
        print(f"   {ev:28s} {v / n:7.3f} per answer")
