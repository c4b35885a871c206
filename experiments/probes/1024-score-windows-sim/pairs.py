#!/usr/bin/env python3
"""pairs.py RUNS...: score-64c's per-pair paired time (median of the window
log ratios) in each A/A run, its spread, and the spread independent
windows would give (1.25 sd / sqrt(W)); the difference is a part of each
pair's level that more windows per pair cannot average out."""
import json, math, statistics as st, sys
sys.path.insert(0, ".")
from simulate import windows  # noqa: E402

for path in sys.argv[1:]:
    by = {}
    for line in open(path):
        r = json.loads(line)
        if r.get("workload") == "score-64c":
            by.setdefault(r["pair"], {})[r["side"]] = r
    per, all_w = [], []
    for sides in by.values():
        b, a = sides.get("before"), sides.get("after")
        if a and b:
            wb = [w for m in b["measurements"] for w in m.get("windows", [])]
            wa = [w for m in a["measurements"] for w in m.get("windows", [])]
            logs = [math.log((y["server_cpu_s"] / y["ok"]) / (x["server_cpu_s"] / x["ok"])) for x, y in zip(wb, wa)]
            per.append(st.median(logs))
            all_w += logs
    w = len(all_w) // len(per)
    obs, ind = st.stdev(per), 1.25 * st.stdev(all_w) / math.sqrt(w)
    between = math.sqrt(max(0.0, obs * obs - ind * ind))
    print(f"{path.split('/')[-2]}: {len(per)} pairs of {w} windows; per-pair sd {100 * obs:.1f} %, "
          f"independent windows would give {100 * ind:.1f} %, so {100 * between:.1f} % per pair beyond the windows")
