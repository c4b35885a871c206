"""Summaries of an HTTP A/B (http-ab.sh's JSON lines) and of 64-writer series
(scripts/store-pairs64's, recorded with TAG=x), for probes 997 and 998.
Usage: python3 summ.py HTTP.jsonl [KV.jsonl ...]"""
import json, statistics as st, sys

rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"put -c 64 -n 18000, pure-serve --data on CPU 0 ({max(r['round'] for r in rows) + 1} rounds, arms rotated):")
for e in sorted({r["env"] for r in rows}):
    v = [r for r in rows if r["env"] == e]
    print(f"  {e:28s} 2xx/s median {st.median(x['ok_per_s'] for x in v):7.0f}"
          f"  server CPU-s median {st.median(x['server_cpu_s'] for x in v):.2f}"
          f"  p50 us median {st.median(x['p50'] for x in v):.0f}")
for f in sys.argv[2:]:
    rows = [json.loads(l) for l in open(f)]
    pure = {(r["build"], r["roundx"]): r for r in rows if r["contender"] == "pure"}
    peb = {(r["build"], r["roundx"]): r for r in rows if r["contender"] == "pebble"}
    builds = sorted({b for b, _ in pure})
    rounds = sorted({r for _, r in pure})
    print(f"{f}: {len(rounds)} rounds, 64 writers, 3 s cells")
    for b in builds:
        ops = [pure[b, r]["ops_per_s"] for r in rounds]
        rat = [pure[b, r]["ops_per_s"] / peb[b, r]["ops_per_s"] for r in rounds]
        cpu = [pure[b, r]["cpu_per_op_s"] * 1e6 for r in rounds]
        print(f"  {b:10s} pure commits/s median {st.median(ops):7.0f}  pure/pebble median {st.median(rat):.2f}"
              f"  CPU us/commit median {st.median(cpu):.2f}")
    a, b = builds
    print(f"  {b}/{a} in the same round: " + ", ".join(f"{pure[b, r]['ops_per_s'] / pure[a, r]['ops_per_s']:.2f}" for r in rounds))
