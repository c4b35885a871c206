// Package qemutrace counts the instructions a guest program executes under
// qemu's user-mode emulator, by reading the log qemu writes with
// -d in_asm,exec,nochain. It is how the workbench counts arm64 instructions
// on an x86 machine, where neither a PMU nor an arm64 valgrind is available
// (experiment 036-arm64-counting).
//
// # The log
//
// With in_asm, qemu logs every block of guest code it translates, once: an
// "IN: symbol" line, then one "0x…:" line per guest instruction. With exec
// it logs every execution of a translated block, as
// "Trace CPU: HOST [CS_BASE/PC/FLAGS/CFLAGS] symbol"; nochain stops blocks
// from jumping straight into each other, so every execution is logged. Read
// sums, over the blocks executed by vCPU 0 (the guest's main thread) between
// the entry of a begin marker function and the entry of an end marker, the
// instructions of their latest translation. A block counts whole even if it
// was left in the middle (a fault or a signal), which pure Go computation
// does not do. On amd64 the method agrees with callgrind within 0.11–0.32 %
// and repeats exactly run to run (experiment 036).
//
// Debian's qemu-user-static ships no TCG plugins (its static binaries
// cannot load any), so qemu's own "insn" counting plugin is not available:
// the log is the instrument.
//
// # Pieces
//
//   - Read parses a log into a Tally; Tally.Err says whether its region
//     count can be trusted (both markers seen, every executed block's
//     translation logged).
//   - Region is the guest's half: it runs a function between the marker
//     functions BeginSymbol and EndSymbol, which a guest built from this
//     module carries in its symbol table (go build keeps it; -ldflags=-s
//     strips it and the markers with it).
//   - Emulator finds the qemu-user binary for a guest architecture, and
//     LogArgs gives the flags that write the log to a file descriptor.
//
// Starting the guest, passing the log's pipe and reading it while the guest
// runs is the caller's (cmd/pure-count run --arch, notebooks/qcount); the
// guest should run with GOMAXPROCS=1, GOGC=off and
// GODEBUG=asyncpreemptoff=1 (GuestEnv), and its main goroutine locked to
// the main thread, whose blocks are the ones counted.
package qemutrace
