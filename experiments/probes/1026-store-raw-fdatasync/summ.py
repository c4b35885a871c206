import json,sys,statistics as st
for f in sys.argv[1:]:
    rows=[]
    for l in open(f):
        t,j=l.split(' ',1); rows.append((float(t),json.loads(j)))
    co=[];tp=[];ps=[]
    for (t0,a),(t1,b) in zip(rows,rows[1:]):
        dt=t1-t0; n=b['inputs']-a['inputs']; s=b['saves']-a['saves']; c=(b['cpu_ns']-a['cpu_ns'])/1e9
        if n<1000: continue
        co.append(c/n*1e6); tp.append(n/dt); ps.append(n/max(s,1))
    a,b=rows[0][1],rows[-1][1]
    n=b['inputs']-a['inputs']; c=(b['cpu_ns']-a['cpu_ns'])/1e9
    print("%-14s total cpu/op %.2f us  %.0f/s  per save %.1f | 100ms cpu/op median %.1f sd %.0f%% | share %.2f"%(f, c/n*1e6, n/(rows[-1][0]-rows[0][0]), n/(b['saves']-a['saves']), st.median(co), 100*st.stdev(co)/st.mean(co), c/(rows[-1][0]-rows[0][0])))
