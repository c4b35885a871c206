# summ.py runs.jsonl: per round, sleep/spin ratios of tx/s and server CPU per tx.
import json, sys, statistics as st
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in rows:
    by.setdefault(r["round"], {})[r["arm"]] = r["result"]
tx, cpu = [], []
for rnd, d in sorted(by.items()):
    a, b = d["sleep"], d["spin"]
    tx.append(a["tx_per_s"] / b["tx_per_s"]); cpu.append(a["server_cpu_us_per_tx"] / b["server_cpu_us_per_tx"])
    print(f"round {rnd}: sleep {a['tx_per_s']:.0f} tx/s {a['server_cpu_us_per_tx']:.1f} us/tx p99 {a['latency_us']['p99']} us, consistency {a['consistency']} | "
          f"spin {b['tx_per_s']:.0f} tx/s {b['server_cpu_us_per_tx']:.1f} us/tx p99 {b['latency_us']['p99']} us, consistency {b['consistency']}")
print(f"sleep/spin, median of rounds: tx/s {st.median(tx):.3f} ({' '.join(f'{x:.3f}' for x in tx)}), "
      f"server CPU per tx {st.median(cpu):.3f} ({' '.join(f'{x:.3f}' for x in cpu)})")
