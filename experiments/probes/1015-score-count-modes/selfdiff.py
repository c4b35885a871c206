#!/usr/bin/env python3
# selfdiff.py A B [N]: the N functions whose self Ir differs most between
# two callgrind dumps (callgrind_annotate --auto=no), for probe 1015.
import sys,subprocess,re
def self_costs(f):
    out=subprocess.run(['callgrind_annotate','--auto=no','--threshold=100',f],capture_output=True,text=True).stdout
    d={}
    for l in out.splitlines():
        m=re.match(r'^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*)$',l)
        if not m or '=>' in l: continue
        n=m.group(2).split(':',1)[-1].split(' [')[0]
        d[n]=d.get(n,0)+int(m.group(1).replace(',',''))
    return d
a=self_costs(sys.argv[1]); b=self_costs(sys.argv[2])
print('total', sum(a.values()), sum(b.values()))
keys=set(a)|set(b)
for k in sorted(keys,key=lambda k:-abs(a.get(k,0)-b.get(k,0)))[:int(sys.argv[3]) if len(sys.argv)>3 else 30]:
    print(f"{a.get(k,0):>12,} {b.get(k,0):>12,} {a.get(k,0)-b.get(k,0):>12,} {k[:100]}")
