# split.py OUTDIR: classify each perf sample by the frames on its stack and
# compare the classes' CPU per answer between the slowest and the fastest
# third of the 100 ms intervals (by server CPU per answer from the polls).
import json, subprocess, sys, collections, statistics as st
out = sys.argv[1]
polls = []
for l in open(f"{out}/polls.txt"):
    t, j = l.split(" ", 1)
    polls.append((float(t), json.loads(j)))
iv = []
for (t0, a), (t1, b) in zip(polls, polls[1:]):
    n = b["inputs"] - a["inputs"]
    if n > 500:
        iv.append((t0, t1, n, (b["cpu_ns"] - a["cpu_ns"]) / 1e3 / n, n / max(1, b["saves"] - a["saves"])))
CLASSES = [  # first match from the leaf up wins; order is priority
    ("gc", ["gcBgMarkWorker", "gcAssist", "gcDrain", "bgsweep", "bgscavenge"]),
    ("fdatasync", ["Fdatasync", "osFile).Sync"]),
    ("sysmon", ["runtime.sysmon"]),
    ("owner apply/save", ["app.(*Runtime).apply", "app.(*Runtime).own"]),
    ("conn write", ["rawIO).doWrite", "rawIO).Writev"]),
    ("conn read/parse", ["serve.(*conn).step", "serve.(*conn).serve"]),
    ("scheduler", ["runtime.findRunnable", "runtime.schedule", "runtime.park_m", "runtime.mcall", "runtime.mstart"]),
]
samples = subprocess.run(["perf", "script", "-i", f"{out}/perf.data", "-F", "time,ip,sym", "--ns"],
                         capture_output=True, text=True).stdout
per = []  # (time, class)
cur_t, frames = None, []
def flush():
    if cur_t is None: return
    text = " ".join(frames)
    cls = "other"
    for name, keys in CLASSES:
        if any(k in text for k in keys):
            cls = name; break
    per.append((cur_t, cls))
for line in samples.splitlines():
    if not line.strip():
        flush(); cur_t, frames = None, []; continue
    if not line.startswith((" ", "\t")):
        flush(); frames = []
        cur_t = float(line.strip().split()[0].rstrip(":"))
    else:
        frames.append(line.strip().split(None, 1)[-1])
flush()
rate = 4000.0
rows = []
for t0, t1, n, cpo, ps in iv:
    c = collections.Counter(cls for t, cls in per if t0 <= t < t1)
    tot = sum(c.values())
    if tot < 100: continue
    rows.append((cpo, ps, n / (t1 - t0), {k: v / rate * 1e6 / n for k, v in c.items()}, tot / rate / (t1 - t0)))
rows.sort(key=lambda r: r[0])
k = len(rows) // 3
names = [n for n, _ in CLASSES] + ["other"]
def avg(rs, f): return st.mean(f(r) for r in rs)
print(f"{len(rows)} intervals with samples; fastest third against slowest third")
print(f"{'':18s} {'fast':>8s} {'slow':>8s}")
print(f"{'CPU us/answer':18s} {avg(rows[:k], lambda r: r[0]):8.2f} {avg(rows[-k:], lambda r: r[0]):8.2f}")
print(f"{'answers/s':18s} {avg(rows[:k], lambda r: r[2]):8.0f} {avg(rows[-k:], lambda r: r[2]):8.0f}")
print(f"{'calls a save':18s} {avg(rows[:k], lambda r: r[1]):8.1f} {avg(rows[-k:], lambda r: r[1]):8.1f}")
print(f"{'sampled CPU share':18s} {avg(rows[:k], lambda r: r[4]):8.2f} {avg(rows[-k:], lambda r: r[4]):8.2f}")
for nm in names:
    print(f"{nm + ' us/ans':18s} {avg(rows[:k], lambda r: r[3].get(nm, 0)):8.2f} {avg(rows[-k:], lambda r: r[3].get(nm, 0)):8.2f}")
