import sys, collections, subprocess
# within conn samples: which syscall or user function (the frame just above the kernel entry, or the leaf if user)
tot=collections.Counter(); n=0
for f in sys.argv[1:]:
    out=subprocess.run(["perf","script","-i",f,"-F","ip,sym"],capture_output=True,text=True).stdout
    for block in out.split("\n\n"):
        syms=[l.split(None,1)[1] if len(l.split(None,1))>1 else l for l in (x.strip() for x in block.strip().split("\n")) if l]
        if not syms: continue
        s=" ".join(syms)
        if "(*conn).serve" not in s: continue
        n+=1
        k=None
        for i,x in enumerate(syms):
            if x.startswith("__x64_sys_") or x.startswith("__sys_") :
                k="sys:"+x.replace("__x64_sys_","").replace("__sys_",""); break
            if x in ("asm_exc_page_fault",): k="pagefault"; break
            if x.startswith("asm_sysvec") or x.startswith("asm_common_interrupt"): k="irq:"+x; break
        if k is None:
            # user leaf, attribute to first workbench function in stack
            lf=syms[0]
            wb=next((x for x in syms if x.startswith("workbench/")), "?")
            k="user:"+wb.split("/")[-1]
        tot[k]+=1
for k,v in tot.most_common(40): print(f"{k:60s} {v:6d} {100*v/n:5.1f}%")
