# Driver of experiment 018, batch "rerun-only", as it was run (see README.md).
import subprocess, json, os, sys, math, time
W = sys.argv[1]; OPS = sys.argv[2]; NP = int(sys.argv[3])
out = open(f'/tmp/thp/pairsim-{W}.jsonl', 'a')
def proc(mode):
    env = dict(os.environ)
    if mode == 'R':
        env['PURE_REUSE'] = '1'; regions = '30'
    else:
        regions = '10'
    t0 = time.time()
    r = subprocess.run(['taskset','-c','1','setarch','x86_64','-R','/tmp/pc-reuse','run','-backend','perf','-e','task-clock','-n',OPS,'-regions',regions,'-json',W], env=env, capture_output=True, text=True)
    vals = [json.loads(l) for l in r.stdout.splitlines() if '"kind":"run"' in l]
    return [v['wall_ns']/v['ops'] for v in vals], time.time()-t0
for p in range(NP):
    for mode in (['F','R'] if p%2==0 else ['R','F']):
        sides = {0: [], 1: []}; el = 0
        for rnd in range(4):
            order = [0,1] if rnd%2==0 else [1,0]
            for s in order:
                v, e = proc(mode); sides[s].append(v); el += e
        out.write(json.dumps({'pair':p,'mode':mode,'sides':sides,'elapsed':el})+'\n'); out.flush()
