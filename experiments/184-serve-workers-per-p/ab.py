#!/usr/bin/env python3
"""ab.py RUNS.jsonl: pure-serve (built from the commit under study) against
pure-serve-before in each round of a pure-http run: per workload the rounds'
ratios of 2xx/s and of 2xx per server CPU-s, the median peak RSS ratio, and
2xx per publication (per synced group) of each. Experiments 184-186."""
import json,statistics,sys
recs=[json.loads(l) for l in open(sys.argv[1])]
for wl in dict.fromkeys(r['workload'] for r in recs):
    rows=[]
    for rnd in sorted({r['round'] for r in recs}):
        a=[r for r in recs if r['workload']==wl and r['round']==rnd and r['id']=='pure-serve']
        b=[r for r in recs if r['workload']==wl and r['round']==rnd and r['id']=='pure-serve-before']
        if not a or not b: continue
        a,b=a[0],b[0]
        rows.append((a['ok_per_s']/b['ok_per_s'], a['ok_per_server_cpu_s']/b['ok_per_server_cpu_s'], a['peak_rss_kib']/b['peak_rss_kib'], a['ok']/max(a.get('publications',1),1), b['ok']/max(b.get('publications',1),1)))
    if not rows: continue
    print(wl, 'rate', ' '.join(f"{x[0]:.2f}" for x in rows), 'med %.3f'%statistics.median(x[0] for x in rows),
          '| cpu', ' '.join(f"{x[1]:.2f}" for x in rows), 'med %.3f'%statistics.median(x[1] for x in rows),
          '| rss med %.3f'%statistics.median(x[2] for x in rows), '| per sync new %.1f old %.1f'%(statistics.median(x[3] for x in rows), statistics.median(x[4] for x in rows)))
