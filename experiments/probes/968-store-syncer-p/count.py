# Probe 968: from `go tool trace -d=parsed trace.out > trace.txt`, each syscall's exit by kind
# (fdatasync, pwrite, other): kept its P (Syscall->Running) or lost it (Syscall->Runnable), with the
# syscall's median length and, for those that lost it, the wait until running again.
# Usage: python3 count.py trace.txt
import re, statistics as st, sys
lines = open(sys.argv[1]).read().split('\n')
gsys, res, t_runnable, waits = {}, {}, {}, {}
for idx, l in enumerate(lines):
    if not l.startswith('M='):
        continue
    m = re.search(r'GoID=(\d+) (\w+)->(\w+)', l)
    if not m:
        continue
    g, a, b = m.groups()
    t = int(re.search(r'Time=(\d+)', l).group(1))
    if a == 'Running' and b == 'Syscall':
        j, kind = idx + 1, 'other'
        while j < len(lines) and not lines[j].startswith('M='):
            if 'Fdatasync' in lines[j]:
                kind = 'fdatasync'
                break
            if 'WriteAt' in lines[j]:
                kind = 'pwrite'
            j += 1
        gsys[g] = (kind, t)
    elif a == 'Syscall':
        kind, t0 = gsys.pop(g, ('other', t))
        res.setdefault((kind, b), []).append(t - t0)
        if b == 'Runnable':
            t_runnable[g] = (kind, t)
    elif a == 'Runnable' and b == 'Running' and g in t_runnable:
        kind, t1 = t_runnable.pop(g)
        waits.setdefault(kind, []).append(t - t1)
for k, v in sorted(res.items()):
    print('syscall', k[0], 'exit to', k[1], len(v), 'median µs', round(st.median(v) / 1e3, 1))
for k, v in waits.items():
    print('wait for a P after', k, len(v), 'median µs', round(st.median(v) / 1e3, 1), 'total ms', round(sum(v) / 1e6, 2))
