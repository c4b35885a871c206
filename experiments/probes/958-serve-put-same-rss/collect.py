#!/usr/bin/env python3
"""Collect probe 958's passes (run.sh output directories) into passes.jsonl:
one line per pass with the build, the load (n=18000 or d=5s), the series it
belongs to, VmHWM after the load, the peak of the 2 ms samples (anon, file)
and the PUT rate. Usage: collect.py DIR... > passes.jsonl (DIR named
p958<series>-<rev>-<pass>, or as listed in reading.md)."""
import json, os, re, sys

for arg in sys.argv[1:]:
    series, d = arg.split('=', 1)
    name = os.path.basename(d.rstrip('/'))
    try:
        load = json.load(open(os.path.join(d, 'load.json')))
    except (OSError, ValueError):
        continue
    status = open(os.path.join(d, 'status-after.txt')).read()
    hwm = int(re.search(r'VmHWM:\s+(\d+)', status).group(1))
    peak = open(os.path.join(d, 'peak.txt')).read()
    m = re.search(r'anon (\d+) kB, file (\d+) kB, total (\d+) kB', peak)
    m2 = re.match(r'p958[a-z]*-([0-9a-f]{7})-(\d+)$', name)
    print(json.dumps({
        'pass': name,
        'series': series,
        'rev': m2.group(1) if m2 else '88057b6',
        'order': int(m2.group(2)) if m2 else None,
        'load': 'n=%d' % load['requests'] if load['duration_s'] < 3 else 'd=5s',
        'vmhwm_kib': hwm,
        'peak_anon_kib': int(m.group(1)), 'peak_file_kib': int(m.group(2)),
        'ok_per_s': round(load['ok_per_s']),
    }))
