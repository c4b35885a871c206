# Per-run spread of score-64c's 400 ms windows (server CPU per answer) in a
# pairs experiment's runs.jsonl, and how neighbouring windows of the two
# sides move together. Usage: python3 window-noise.py runs.jsonl
import json, math, statistics as st, sys

recs = [json.loads(l) for l in open(sys.argv[1])]
for wl in ["score-64c", "get-64c", "get-pipe16"]:
    by = {}
    for r in recs:
        if r["workload"] != wl:
            continue
        for m in r["measurements"]:
            if m["backend"] == "perf":
                by.setdefault(r["pair"], {})[r["side"]] = [math.log(x["server_cpu_s"] / x["ok"]) for x in m["windows"]]
    sd = {s: [100 * st.stdev(d[s]) for d in by.values() if s in d] for s in ("before", "after")}
    cross = [st.correlation(d["before"], d["after"]) for d in by.values() if len(d) == 2]
    print(f"{wl}: window log sd per run, before median {st.median(sd['before']):.1f} %, after {st.median(sd['after']):.1f} %; "
          f"neighbouring windows of the two sides correlate {st.median(cross):.2f} (median over pairs)")
