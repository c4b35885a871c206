// Command pure-count counts instructions (and other events) of whole
// commands and of registered in-process workloads, with the kernel's
// perf_event interface or, where there is no PMU, with valgrind's callgrind.
//
//	pure-count stat [-e EVENTS] [-r N] [--backend perf|callgrind] [--json] -- CMD [ARGS...]
//	pure-count run  [-e EVENTS] [-n OPS] [-r N] [--backend perf|callgrind] [--json] WORKLOAD...
//	pure-count run  --arch arm64|amd64 [--guest PATH] [-n OPS] [-r N] [--json] WORKLOAD...
//	pure-count list
//	pure-count events
//
// Every count is labelled with its source (perf, callgrind, or qemu-ARCH for
// run --arch, which counts another instruction set's instructions from
// qemu-user's execution log: emulated.go). Any failure
// exits non-zero with a one-line reason on stderr.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
)

// The main goroutine stays on the main thread, whose system stack is the
// process stack, far from goroutine stacks: callgrind then sees the runtime's
// stack switches as switches, not as returns, and its marker toggling stays
// exact.
func init() { runtime.LockOSThread() }

func main() {
	if len(os.Args) > 1 && os.Args[1] == measureCmd {
		// The counted child starts no goroutine of its own (no signal
		// watcher): goroutines running at moments that depend on the wall
		// clock would change the heap the region allocates from.
		if err := cmdMeasure(os.Args[2:], os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "pure-count: "+oneLine(err.Error()))
			os.Exit(exitCode(err))
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pure-count: "+oneLine(err.Error()))
		os.Exit(exitCode(err))
	}
}

const usage = `usage:
  pure-count stat [-e EVENTS] [-r N] [--backend perf|callgrind] [--json] -- CMD [ARGS...]
      count a whole command, like perf stat; with -r N run it N times and
      print min, median and max of each event
  pure-count run [-e EVENTS] [-n OPS] [-r N] [--backend perf|callgrind] [--json] WORKLOAD...
      count registered workloads in fresh processes; prints the count per op
      and its source; with -r N repeats N times and prints min, median, max
      and the spread ((max-min)/median)
  pure-count run --arch arm64|amd64 [--guest PATH] [-n OPS] [-r N] [--json] WORKLOAD...
      count the workloads' instructions on another instruction set: a
      pure-count cross-built for ARCH runs under qemu-user and qemu's
      execution log is counted (source qemu-ARCH; needs qemu-user-static)
  pure-count list
      the registered workloads, one a line
  pure-count events
      the generic event names, then the named events of this machine's PMUs
      (from /sys/bus/event_source/devices/*/events, with their raw codes),
      each marked with what can count it on this machine
  pure-count profile IN.callgrind OUT.pb.gz
      convert a callgrind output file into a pprof profile

EVENTS is a comma-separated list as perf spells it: instructions, cycles:u,
task-clock, r00c0, inst_retired, armv8_cortex_a76/inst_retired/, ...
Without a PMU (most VMs), hardware events cannot be counted: use
--backend callgrind, which counts instructions (Ir) by simulation.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError("no subcommand: use stat, run, list, events or profile")
	}
	switch args[0] {
	case "stat":
		return cmdStat(ctx, args[1:], stdout, stderr)
	case "run":
		return cmdRun(ctx, args[1:], stdout, stderr)
	case "list":
		return cmdList(args[1:], stdout)
	case "events":
		return cmdEvents(args[1:], stdout)
	case "profile":
		return cmdProfile(args[1:], stdout)
	case measureCmd:
		return cmdMeasure(args[1:], stdout)
	case "-h", "-help", "--help", "help":
		printHelp(stdout)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return usageError(fmt.Sprintf("unknown subcommand %q: use stat, run, list, events or profile", args[0]))
}

// printHelp prints the usage and every flag of stat and run.
func printHelp(w io.Writer) {
	fmt.Fprint(w, usage)
	var c common
	fmt.Fprint(w, "\nstat flags:\n")
	fs := newFlagSet("stat")
	c.register(fs)
	printDefaults(fs, w)
	fmt.Fprint(w, "\nrun flags:\n")
	fs, _ = newRunFlags(&c)
	printDefaults(fs, w)
}

type usageError string

func (e usageError) Error() string { return string(e) }

func exitCode(err error) int {
	var st exitStatus
	switch {
	case errors.As(err, &st):
		return st.code
	case errors.As(err, new(usageError)):
		return 2
	}
	return 1
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
