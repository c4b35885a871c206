"""Probe 1001's summary from kv64.jsonl (run from this directory): per build the
pure commits/s and the ratio to base in the same round, with pebble's rate beside."""
import json, statistics as st

rows = [json.loads(l) for l in open("kv64.jsonl")]
pure = {(r["build"], r["roundx"]): r["ops_per_s"] for r in rows if r["contender"] == "pure"}
peb = {(r["build"], r["roundx"]): r["ops_per_s"] for r in rows if r["contender"] == "pebble"}
rounds = sorted({k[1] for k in pure})
print(f"{len(rounds)} rounds, 64 writers, 3 s cells; pebble's cells per round (min-max):")
for r in rounds:
    ps = [peb[b, r] for b in ("base", "pad100k", "spin200us")]
    print(f"  round {r}: pure base {pure['base', r]:7.0f}  pebble {min(ps):7.0f}-{max(ps):7.0f}")
for b in ("pad100k", "spin200us"):
    rat = [pure[b, r] / pure["base", r] for r in rounds]
    print(f"{b:9s} / base, same round: " + ", ".join(f"{x:.2f}" for x in rat) + f"; median {st.median(rat):.3f}")
    calm = [x for r, x in zip(rounds, rat) if min(pure[b, r], pure["base", r]) > 150000]
    print(f"{'':9s}   rounds where both pure cells ran above 150k commits/s ({len(calm)}): median {st.median(calm):.3f}")
