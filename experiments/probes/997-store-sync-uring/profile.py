"""Probe 997: pure-serve's perf samples (http-prof.sh's perf.N.data) sorted two ways.
Usage: python3 profile.py owners|syscalls perf.0.data [perf.1.data ...]
  owners    every sample by owner: sysmon, the syncer, the collector, the scheduler,
            the leader's sync, the connections' goroutines, other
  syscalls  the connections' samples by system call (the kernel entry in the stack),
            or by the innermost workbench function when the sample is in user code"""
import collections, subprocess, sys


def stacks(files):
    for f in files:
        out = subprocess.run(["perf", "script", "-i", f, "-F", "ip,sym"], capture_output=True, text=True).stdout
        for block in out.split("\n\n"):
            syms = [l.split(None, 1)[1] if len(l.split(None, 1)) > 1 else l
                    for l in (x.strip() for x in block.strip().split("\n")) if l]
            if syms:
                yield syms


def owner(syms):
    s = " ".join(syms)
    if "runtime.sysmon" in s: return "sysmon"
    if "syncLoop" in s: return "syncer"
    if any(x in s for x in ("gcBgMarkWorker", "gcDrain", "bgsweep", "bgscavenge")): return "gc"
    if "findRunnable" in s or "stopm" in s or "schedule" in syms[-3:] and "runtime" in s: return "sched"
    if "syncPublish" in s: return "leader-sync"
    if "(*conn).serve" in s: return "conn"
    return "other"


def syscall(syms):
    for x in syms:
        if x.startswith("__x64_sys_") or x.startswith("__sys_"):
            return "sys:" + x.replace("__x64_sys_", "").replace("__sys_", "")
        if x == "asm_exc_page_fault": return "pagefault"
        if x.startswith("asm_sysvec") or x.startswith("asm_common_interrupt"): return "irq:" + x
    return "user:" + next((x for x in syms if x.startswith("workbench/")), "?").split("/")[-1]


mode, files = sys.argv[1], sys.argv[2:]
tot = collections.Counter()
for syms in stacks(files):
    if mode == "owners":
        tot[owner(syms)] += 1
    elif "(*conn).serve" in " ".join(syms):
        tot[syscall(syms)] += 1
n = sum(tot.values())
for k, v in tot.most_common(40):
    print(f"{k:60s} {v:6d} {100 * v / n:5.1f}%")
