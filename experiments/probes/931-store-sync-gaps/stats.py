#!/usr/bin/env python3
"""Probe 931: turn traces of pure-kvbench's 64-writer cell into one JSON
line each (runs.jsonl). Two kinds of trace:

  perf FILE.perf NAME   `perf record -e syscalls:sys_{enter,exit}_fdatasync,...
                        -a` of one contender: each fdatasync's duration and the
                        gap from one's return to the next one's call
  go FILE.txt NAME      the store's own events (probe_trace.go.txt compiled in,
                        PURE_TRACE=FILE): syncs, gaps, and folds' phases
Usage: stats.py perf pure.perf pure >> runs.jsonl
       stats.py go tr.txt NAME [groups] >> runs.jsonl  (groups: n= counts groups)
"""
import json, re, statistics, subprocess, sys

def pct(a, p):
    a = sorted(a)
    return a[min(len(a) - 1, int(p * len(a)))] if a else 0

def summary(d, gaps, span, extra):
    big = [g for g in gaps if g >= 200]
    return dict(syncs=len(d), span_us=span,
                sync_p50_us=pct(d, .5), sync_mean_us=round(statistics.mean(d), 1), sync_p90_us=pct(d, .9),
                gap_p50_us=pct(gaps, .5), gap_mean_us=round(statistics.mean(gaps), 1), gap_p90_us=pct(gaps, .9),
                idle_share=round(sum(gaps) / span, 3), idle_share_gaps_over_200us=round(sum(big) / span, 3), **extra)

def perf(fn, name):
    out = subprocess.run(['perf', 'script', '-i', fn, '-F', 'comm,tid,time,event,trace'], capture_output=True, text=True).stdout
    ent, syncs, fds = {}, [], {}
    for l in out.splitlines():
        m = re.match(r'\s*(\S.*?)\s+(\d+)\s+([\d.]+):\s+(\S+):\s*(.*)$', l)
        if not m or m.group(1) != 'pure-kvbench' and not m.group(1).startswith('s9kv'):
            continue
        _, tid, t, ev, tr = m.groups()
        t = float(t) * 1e6
        if ev == 'syscalls:sys_enter_fdatasync':
            ent[tid] = (t, int(tr.split('fd:')[1].split(',')[0], 16))
        elif ev == 'syscalls:sys_exit_fdatasync' and tid in ent:
            t0, fd = ent.pop(tid)
            syncs.append((t0, t, fd))
            fds[fd] = fds.get(fd, 0) + 1
    fd = max(fds, key=fds.get)
    ss = [s for s in syncs if s[2] == fd]
    ss = ss[len(ss) // 10: len(ss) * 9 // 10]  # steady state
    d = [round(b - a) for a, b, _ in ss]
    gaps = [round(ss[i + 1][0] - ss[i][1]) for i in range(len(ss) - 1)]
    return summary(d, gaps, round(ss[-1][1] - ss[0][0]), dict(kind='perf', name=name))

def go(fn, name, groups=False):
    ev = []
    for l in open(fn):
        a = l.rstrip('\n').split(' ', 2)
        ev.append((int(a[0]), a[1], a[2] if len(a) > 2 else ''))
    n = len(ev)
    ev = ev[n // 10: n * 9 // 10]
    d, gaps, commits, st, end = [], [], 0, None, None
    fold_apply, fold_rest, fs, fa = [], [], None, None
    for t, k, a in ev:
        if k == 'syncstart':
            if end is not None:
                gaps.append(t - end)
            st = t
            commits += int(a.split('=')[1])
        elif k == 'syncend' and st is not None:
            d.append(t - st)
            end = t
        elif k == 'wg' and 'fold=true' in a:
            fs = t  # applied, fold decided: the fold's apply starts
        elif k == 'foldstart':
            fs = t
        elif k == 'foldapplied' and fs is not None:
            fold_apply.append(t - fs)
            fa = t
        elif k == 'wg' and a.startswith('written') and fa is not None:
            fold_rest.append(t - fa)
            fa = fs = None
    span = ev[-1][0] - ev[0][0]
    extra = dict(kind='go', name=name)
    if not groups:  # syncstart's n= counts commits (in the overlap prototype, groups)
        extra.update(commits_per_s=round(commits / span * 1e6), commits_per_sync=round(commits / max(len(d), 1), 1))
    if fold_apply:
        extra.update(folds=len(fold_apply), fold_apply_p50_us=pct(fold_apply, .5), fold_spill_write_p50_us=pct(fold_rest, .5),
                     fold_share=round((sum(fold_apply) + sum(fold_rest)) / span, 3))
    return summary(d, gaps, span, extra)

if __name__ == '__main__':
    kind, fn, name = sys.argv[1:4]
    if kind == 'go':
        print(json.dumps(go(fn, name, sys.argv[4:] == ['groups'])))
    else:
        print(json.dumps(perf(fn, name)))
