# Driver of experiment 018, batch "gate", as it was run (see README.md).
import subprocess, json, os, sys, math, time, tempfile
W = sys.argv[1]; OPS = sys.argv[2]; NP = int(sys.argv[3])
out = open(f'/tmp/thp/lock-{W}.jsonl', 'a')
BIN='/tmp/pc-gate'
def cmd(regions):
    return ['taskset','-c','1','setarch','x86_64','-R',BIN,'run','-backend','perf','-e','task-clock','-n',OPS,'-regions',str(regions),'-json',W]
def parse(s):
    return [json.loads(l)['wall_ns']/int(OPS) for l in s.splitlines() if '"kind":"run"' in l]
def proc(regions, reuse):
    env = dict(os.environ)
    if reuse: env['PURE_REUSE']='1'
    r = subprocess.run(cmd(regions), env=env, capture_output=True, text=True)
    return parse(r.stdout)
def lockpair(regions, reuse):
    d = tempfile.mkdtemp()
    ps=[]; fr=[]; fw=[]
    for s in 'AB':
        g=os.path.join(d,s); os.mkfifo(g+'.go'); os.mkfifo(g+'.ready')
        env=dict(os.environ); env['PURE_GATE']=g
        if reuse: env['PURE_REUSE']='1'
        ps.append(subprocess.Popen(cmd(regions), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    for s in 'AB':
        g=os.path.join(d,s)
        fr.append(open(g+'.ready','rb',buffering=0)); fw.append(open(g+'.go','wb',buffering=0))
    for i in range(2): fr[i].read(1)
    for r in range(regions):
        for i in ([0,1] if r%2==0 else [1,0]):
            fw[i].write(b'x'); fr[i].read(1)
    res=[parse(p.communicate()[0]) for p in ps]
    return res
for p in range(NP):
    modes=['F','L','LR']
    modes=modes[p%3:]+modes[:p%3]
    for mode in modes:
        sides={0:[],1:[]}; t0=time.time()
        for rnd in range(4):
            if mode=='F':
                for s in ([0,1] if rnd%2==0 else [1,0]): sides[s].append(proc(10, False))
            else:
                a,b = lockpair(10 if mode=='L' else 30, mode=='LR')
                if rnd%2==1: a,b=b,a
                sides[0].append(a); sides[1].append(b)
        out.write(json.dumps({'pair':p,'mode':mode,'sides':sides,'elapsed':time.time()-t0})+'\n'); out.flush()
