#!/usr/bin/env python3
"""Reads `perf script` output of the two uprobes run.sh sets (runtime.morestack
with its caller chain, runtime.copystack with the new size and the goroutine's
stack bounds) and prints, per new stack size, where goroutines grew their
stacks: the function that needed more stack (the copystack's gp.sched.pc,
named with go tool addr2line) and the chain of its callers (the morestack
event just before it on the same thread). Shrinks (newsize below the old
size, the collector's) are counted apart.
Usage: grows.py BINARY < script.txt"""
import collections, re, subprocess, sys

binary = sys.argv[1]
events = []  # (tid, kind, fields, frames)
cur = None
for line in sys.stdin:
    m = re.match(r'^\s*\S+\s+(\d+)\s+\[\d+\]\s+[\d.]+:\s+rss1:(\w+):.*', line)
    if m:
        fields = dict(re.findall(r'(\w+)=(\S+)', line))
        cur = [int(m.group(1)), m.group(2), fields, []]
        events.append(cur)
        continue
    m = re.match(r'^\s+[0-9a-f]+\s+(\S+)', line)
    if m and cur is not None:
        cur[3].append(re.sub(r'\+0x[0-9a-f]+$', '', m.group(1)))

pcs = sorted({e[2]['pc'] for e in events if e[1] == 'copystack'})
names = {}
if pcs:
    out = subprocess.run(['go', 'tool', 'addr2line', binary], input='\n'.join(pcs) + '\n',
                         capture_output=True, text=True, check=True).stdout.split('\n')
    for i, pc in enumerate(pcs):
        names[pc] = out[2 * i]

last_more = {}
grows = collections.Counter()
shrinks = collections.Counter()
used = collections.defaultdict(list)
size = {}  # goid -> its stack size after its last copy
for tid, kind, f, frames in events:
    if kind == 'morestack':
        last_more[tid] = frames[1:]
        continue
    new = int(f['newsize'])
    old = int(f['hi'], 16) - int(f['lo'], 16)
    size[f['goid']] = new
    if new < old:
        shrinks[(old, new)] += 1
        continue
    chain = last_more.pop(tid, [])
    key = (new, names.get(f['pc'], f['pc']), ' < '.join(c for c in chain if c != 'runtime.goexit.abi0'))
    grows[key] += 1
    used[key].append(int(f['hi'], 16) - int(f['sp'], 16))

census = collections.Counter(size.values())
print('goroutines copied at least once:', len(size), '; their sizes after the last copy (bytes: goroutines):',
      ', '.join(f'{n}: {c}' for n, c in sorted(census.items())))
print('shrinks (old -> new bytes: count):', ', '.join(f'{o}->{n}: {c}' for (o, n), c in sorted(shrinks.items())) or 'none')
for new in sorted({k[0] for k in grows}):
    keys = [k for k in grows if k[0] == new]
    total = sum(grows[k] for k in keys)
    print(f'\n== grown to {new} bytes: {total} times')
    for k in sorted(keys, key=lambda k: -grows[k]):
        u = used[k]
        print(f'{grows[k]:5d}  used {min(u)}-{max(u)} B at the growth  needs more: {k[1]}\n       called from: {k[2]}')
