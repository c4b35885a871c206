#!/usr/bin/env python3
# syncs.py DUMP...: how many times each callgrind dump's process called
# fdatasync (calls= lines to unix.Fdatasync), for probe 1015.
import re, sys
for path in sys.argv[1:]:
    names, n, target = {}, 0, None
    for l in open(path):
        m = re.match(r'^(c?fn)=\((\d+)\)(?: (.*))?$', l.rstrip('\n'))
        if m:
            kind, i, name = m.groups()
            if name:
                names[i] = name
            if kind == 'cfn':
                target = names.get(i, '')
            continue
        m = re.match(r'^calls=(\d+)', l)
        if m and target and target.split("'")[0].endswith('unix.Fdatasync'):
            n += int(m.group(1))
    print(f'{path}\t{n}')
