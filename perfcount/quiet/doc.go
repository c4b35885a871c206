// Package quiet is the quiet start of a counted child process: it keeps the
// Go runtime's system monitor (sysmon) asleep while a region is counted
// under an instrument that slows the program down (callgrind, qemu).
//
// Why: sysmon preempts a goroutine that has run for 10 ms of wall time.
// Under callgrind a region runs 50 to 100 times slower than natively, and
// under qemu for seconds, so it would be preempted many times more often
// than in a native run, and each preemption adds scheduler instructions to
// the region's thread at moments that depend on the wall clock (under qemu,
// about 3 % more instructions in sort-ints-10k, varying by 0.5 %). sysmon
// goes into a long sleep when every P is idle, and only a system call, a
// stop of the world or a P leaving a system call wakes it.
//
// So the child, once prepared, tells the parent it is ready (fd 4) and
// parks on a pipe (fd 3) through the network poller, leaving its P idle
// (Child). The parent waits long enough for sysmon to notice and sleep, and
// writes one byte (Parent). The child wakes without entering a system call
// (the read is a raw one) and counts the region at once. SettleHeap and
// GrowStack remove two other wall-clock-dependent costs from the region:
// pending heap growth and scavenging, and stack copying.
//
// Used by cmd/pure-count (callgrind and qemu) and notebooks/qcount (qemu).
package quiet
