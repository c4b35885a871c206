import json,sys
for f in sys.argv[1:]:
    for l in open(f):
        d=json.loads(l)
        if d.get('contender'):
            print(f.split('/')[-1], d['contender'], d['writers'], round(d['ops_per_s']), 'cpu_us/op %.2f'%(d['cpu_per_op_s']*1e6), 'syncs/op %.3f'%(d['syncs_per_op'] or 0))
