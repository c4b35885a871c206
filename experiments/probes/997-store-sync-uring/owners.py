import sys, collections, subprocess
# share of samples by coarse owner: sysmon, syncer (syncLoop), gc, conn (serve), scheduler idle (findRunnable/stopm), other
tot=collections.Counter()
for f in sys.argv[1:]:
    out=subprocess.run(["perf","script","-i",f,"-F","ip,sym"],capture_output=True,text=True).stdout
    for block in out.split("\n\n"):
        syms=[l.split(None,1)[1] if len(l.split(None,1))>1 else l for l in (x.strip() for x in block.strip().split("\n")) if l]
        if not syms: continue
        s=" ".join(syms)
        if "runtime.sysmon" in s: k="sysmon"
        elif "syncLoop" in s: k="syncer"
        elif "gcBgMarkWorker" in s or "gcDrain" in s or "bgsweep" in s or "bgscavenge" in s: k="gc"
        elif "findRunnable" in s or "stopm" in s or "schedule" in syms[-3:] and "runtime" in s: k="sched"
        elif "syncPublish" in s: k="leader-sync"
        elif "(*conn).serve" in s: k="conn"
        else: k="other"
        tot[k]+=1
n=sum(tot.values())
for k,v in tot.most_common(): print(f"{k:12s} {v:6d} {100*v/n:5.1f}%")
