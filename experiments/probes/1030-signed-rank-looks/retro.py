#!/usr/bin/env python3
"""Probe 1030: what the signed-rank rule (simulate.py's boundaries, from
sim.jsonl's first line) and the judge's sign rule say of score-64c's paired
time in the http A/A runs given, at each look the run made, stopping where
the run stopped. Pairs without a paired time (added pairs of the callgrind
part alone) are skipped; disturbed pairs are not left out here (the judge
leaves some out), so the sign rule's verdict can differ from the note's.
Usage: retro.py sim.jsonl runs.jsonl...
"""
import importlib.util, json, math, os, sys

_spec = importlib.util.spec_from_file_location(
    "probe1030", os.path.join(os.path.dirname(os.path.abspath(__file__)), "simulate.py"))
_s = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_s)


def main():
    head = json.loads(open(sys.argv[1]).readline())
    cs = dict(zip(head["looks"], head["signed_rank_c"]))
    ks = _s._m.orders(6, 60, 0.025)
    for path in sys.argv[2:]:
        by = {}
        for line in open(path):
            r = json.loads(line)
            if r["workload"] == "score-64c" and r["metrics"].get("paired_time"):
                by.setdefault(r["pair"], {})[r["side"]] = r["metrics"]["paired_time"]
        xs = [math.log(s["after"] / s["before"]) for p, s in sorted(by.items()) if len(s) == 2]
        out = {"run": path.split("/")[-2], "pairs": len(xs)}
        for rule in ("sign", "signed-rank"):
            v = None
            for n in head["looks"]:
                if n > len(xs):
                    break
                if rule == "sign" and sorted(xs[:n])[n - ks[n]] < _s.T:
                    v = n
                    break
                if rule == "signed-rank" and _s.signed_rank(xs[:n], _s.T) <= cs[n]:
                    v = n
                    break
            out[rule] = "same at %d" % v if v else "unknown"
        print(json.dumps(out))


if __name__ == "__main__":
    main()
