// Command qcount counts the instructions a registered workload executes on
// another instruction set, under qemu's user-mode emulator, so that lesson
// 05 can set arm64 counts beside x86-64 ones on a machine without an arm64
// CPU (and without any PMU).
//
//	go run ./notebooks/qcount [-arch arm64|amd64] [-via qemu|callgrind] [-n OPS] [-r N] WORKLOAD...
//
// It cross-builds itself for -arch (CGO_ENABLED=0), and runs the binary as
// a guest that prepares the workload and runs it between marker functions
// (guest.go). With -via qemu (the default) the guest runs under
// qemu-aarch64-static or qemu-x86_64-static with -d in_asm,exec,nochain:
// qemu logs each block it translates, with its instructions, and, since
// nochain stops blocks from jumping straight into each other, every block
// it executes. The count is the sum, over the blocks the main thread
// executes between the markers, of their instructions (perfcount/qemutrace). With
// -via callgrind (amd64 only) the same guest runs under valgrind's
// callgrind, collecting only inside the marker function, as a cross-check
// of the qemu method against the instrument the workbench already trusts.
//
// Debian's qemu-user-static ships no TCG plugins (a static binary cannot
// load them), so qemu's own "insn" plugin is not available; the log is the
// honest substitute: a block counts whole even if it was left early (a
// fault in its middle), which pure Go computation does not do.
//
// The guest runs with GOMAXPROCS=1, GOGC=off and asynchronous preemption
// off, as under callgrind, and starts its region after the same quiet
// start as pure-count (quiet.go); only the main thread's blocks are counted.
// With QCOUNT_SYMBOLS=1 in the environment it also prints, to stderr, the
// region's instructions per function: that is how the 0.1–0.3 % between
// qemu's and callgrind's counts of the same amd64 binary was found to sit in
// a few functions, about one instruction per call.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
)

// The guest's main goroutine stays on the main thread (qemu's vCPU 0),
// whose blocks are the ones counted.
func init() { runtime.LockOSThread() }

func main() {
	if len(os.Args) > 1 && os.Args[1] == guestCmd {
		if err := guest(os.Args[2:], os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "qcount guest: "+err.Error())
			os.Exit(1)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "qcount: "+err.Error())
		os.Exit(1)
	}
}

const usage = `usage: qcount [-arch arm64|amd64] [-via qemu|callgrind] [-n OPS] [-r N] WORKLOAD...
count the instructions a workload executes per operation, under qemu-user
(-via qemu, either arch) or callgrind (-via callgrind, amd64 only)

`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("qcount", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage); fs.PrintDefaults() }
	arch := fs.String("arch", "arm64", "guest instruction set: arm64 or amd64")
	via := fs.String("via", "qemu", "instrument: qemu (-d in_asm,exec,nochain log) or callgrind (amd64 only)")
	ops := fs.Int("n", 0, "operations per region (default: the workload's own)")
	repeat := fs.Int("r", 1, "repeat `N` times (fresh processes)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fs.SetOutput(stdout)
			fs.Usage()
			return nil
		}
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("name at least one workload (go run ./cmd/pure-count list)")
	}
	if *arch != "arm64" && *arch != "amd64" {
		return fmt.Errorf("-arch %s: use arm64 or amd64", *arch)
	}
	if *via == "callgrind" && (*arch != "amd64" || runtime.GOARCH != "amd64") {
		return fmt.Errorf("-via callgrind counts host instructions: use it with -arch amd64 on an amd64 machine")
	}
	if *via != "qemu" && *via != "callgrind" {
		return fmt.Errorf("-via %s: use qemu or callgrind", *via)
	}
	if *repeat < 1 {
		return fmt.Errorf("-r %d: repeat at least once", *repeat)
	}
	dir, err := os.MkdirTemp("", "qcount-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin, err := buildGuest(ctx, dir, *arch)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%-18s %-6s %-10s %4s %16s %5s  %s\n", "workload", "arch", "via", "ops", "instructions/op", "runs", "min..max")
	for _, w := range fs.Args() {
		var vals []uint64
		for i := 0; i < *repeat; i++ {
			v, err := countOnce(ctx, dir, bin, *arch, *via, w, *ops)
			if err != nil {
				return fmt.Errorf("workload %s: %w", w, err)
			}
			vals = append(vals, v)
		}
		printRow(stdout, w, *arch, *via, *ops, vals)
	}
	return nil
}
