package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"

	"workbench/perfcount"
	"workbench/perfcount/qemutrace"
	"workbench/perfcount/quiet"
	"workbench/perfcount/workload"
)

// measureCmd is the hidden subcommand a fresh child process runs to count
// one workload once; `run` starts it (under valgrind for callgrind).
const measureCmd = "__measure"

// runLine is one JSON line of `run --json`: one event of one region of one
// repeat.
type runLine struct {
	Kind        string            `json:"kind"`
	Workload    string            `json:"workload"`
	Ops         int               `json:"ops"`
	Repeat      int               `json:"repeat"`
	Region      int               `json:"region"`
	Event       string            `json:"event"`
	Value       uint64            `json:"value"`
	PerOp       float64           `json:"per_op"`
	Source      perfcount.Source  `json:"source"`
	Multiplexed bool              `json:"multiplexed"`
	Preempted   bool              `json:"preempted,omitempty"`
	WallNs      int64             `json:"wall_ns"`
	CPUNs       int64             `json:"cpu_ns"`
	Machine     perfcount.Machine `json:"machine"`
}

// measured is what a child prints: the counts of one region.
type measured struct {
	Workload string            `json:"workload"`
	Ops      int               `json:"ops"`
	Counts   []perfcount.Count `json:"counts"`
	WallNs   int64             `json:"wall_ns"`
	CPUNs    int64             `json:"cpu_ns"`
	Machine  perfcount.Machine `json:"machine"`
}

// runFlags are run's own flags, beside the common ones.
type runFlags struct {
	ops, regions *int
	dumpDir      *string
	rerun, gate  *bool
	arch, guest  *string
}

// newRunFlags defines run's flags on a new flag set.
func newRunFlags(c *common) (*flag.FlagSet, runFlags) {
	fs := newFlagSet("run")
	c.register(fs)
	var f runFlags
	f.ops = fs.Int("n", 0, "operations per region (default: the workload's own)")
	f.regions = fs.Int("regions", 1, "perf backend: count `K` regions one after another in each fresh process, each prepared afresh (for timing: the fastest of many short regions)")
	f.dumpDir = fs.String("dump-dir", "", "callgrind: keep each run's callgrind dump as `DIR`/WORKLOAD.REPEAT.callgrind")
	f.rerun = fs.Bool("rerun", false, "perf backend, with --regions: prepare once and run every region on that same state (only workloads that allow it; pure-count list marks them)")
	f.gate = fs.Bool("gate", false, "perf backend: let the caller alternate this process's regions with another's, through pipes it passes as fd 3 and 4 (docs/pure-count-json.md)")
	f.arch = fs.String("arch", "", "count instructions of `ARCH` (arm64 or amd64) under qemu-user, from its execution log; source qemu-ARCH (emulated.go)")
	f.guest = fs.String("guest", "", "with --arch: a pure-count built for ARCH (`PATH`; default: cross-build it from the workbench checkout the working directory is in)")
	return fs, f
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs, f := newRunFlags(&c)
	if err := parseFlags(fs, args, stdout); err != nil {
		if errors.Is(err, errHelp) {
			return nil // -h: the help is printed
		}
		return err
	}
	ops, regions, dumpDir, rerun, gate := f.ops, f.regions, f.dumpDir, f.rerun, f.gate
	backend, evs, err := c.parse()
	if err != nil {
		return err
	}
	arch := *f.arch
	if arch != "" {
		set := map[string]bool{}
		fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
		if err := checkArchFlags(arch, c, f, set); err != nil {
			return err
		}
	} else if *f.guest != "" {
		return usageError("--guest is the pure-count --arch runs: add --arch")
	}
	names := fs.Args()
	if len(names) == 0 {
		return usageError("run: name at least one workload (see pure-count list)")
	}
	var ws []workload.Workload
	for _, n := range names {
		w, ok := workload.Lookup(n)
		if !ok {
			return usageError(fmt.Sprintf("run: no workload %q (see pure-count list)", n))
		}
		ws = append(ws, w)
	}
	if *ops < 0 {
		return usageError(fmt.Sprintf("-n %d: operations must be positive", *ops))
	}
	if *regions < 1 {
		return usageError(fmt.Sprintf("--regions %d: count at least one region", *regions))
	}
	if *regions > 1 && backend == perfcount.BackendCallgrind {
		return usageError(fmt.Sprintf("--regions %d: several regions per process are for timing with the perf backend; callgrind counts one region exactly, so raise -n instead", *regions))
	}
	if (*rerun || *gate) && backend != perfcount.BackendPerf {
		return usageError("--rerun and --gate are for timing with the perf backend; callgrind counts one region exactly")
	}
	if *rerun {
		for _, w := range ws {
			if !w.Rerun {
				return usageError(fmt.Sprintf("--rerun: workload %s cannot run its region twice on one preparation (see pure-count list); drop --rerun to prepare each region afresh", w.Name))
			}
		}
	}
	var gateFiles []*os.File
	if *gate {
		if len(ws) != 1 || c.repeat != 1 {
			return usageError("--gate alternates the regions of one process with another's: name one workload and leave -r at 1")
		}
		if gateFiles, err = gatePipes(); err != nil {
			return err
		}
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("run: finding this executable to start fresh processes: %w", err)
	}
	if backend == perfcount.BackendCallgrind && arch == "" {
		if _, err := perfcount.ValgrindPath(); err != nil {
			return err
		}
	}
	var qemu, guest string
	if arch != "" {
		if qemu, err = qemutrace.Emulator(arch); err != nil {
			return err
		}
		dir, err := os.MkdirTemp("", "purecount-"+arch+"-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if guest, err = guestBinary(ctx, *f.guest, arch, dir); err != nil {
			return err
		}
	}
	enc := json.NewEncoder(stdout)
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', tabwriter.AlignRight)
	if !c.json {
		fmt.Fprintln(tw, "workload\tops\tevent\tper op\tsource\tregions\tmin\tmax\tspread\t")
	}
	for _, w := range ws {
		n := *ops
		if n == 0 {
			n = w.DefaultOps
		}
		var all []measured
		for rep := 1; rep <= c.repeat; rep++ {
			keep := ""
			if *dumpDir != "" && backend == perfcount.BackendCallgrind {
				keep, err = filepath.Abs(filepath.Join(*dumpDir, fmt.Sprintf("%s.%d.callgrind", w.Name, rep)))
				if err != nil {
					return err
				}
				if err := os.MkdirAll(*dumpDir, 0o755); err != nil {
					return err
				}
			}
			var ms []measured
			if arch != "" {
				ms, err = measureEmulated(ctx, qemu, guest, arch, w.Name, n)
			} else {
				for attempt := 1; ; attempt++ {
					ms, err = measureInChild(ctx, self, backend, c.events, w.Name, n, *regions, keep, *rerun, gateFiles)
					// A preempted region is counted again, in a fresh
					// process, unless a gate paces the processes (the
					// pairs runner then sees "preempted" in the line).
					if err != nil || gateFiles != nil || !anyPreempted(ms) || attempt == preemptAttempts {
						break
					}
					fmt.Fprintf(os.Stderr, "pure-count: %s, count %d: Go's scheduler preempted the region (sysmon was awake: the quiet start did not hold, as on a busy machine); counting again in a fresh process (attempt %d of %d)\n",
						w.Name, rep, attempt+1, preemptAttempts)
				}
			}
			if err != nil {
				return err
			}
			all = append(all, ms...)
			if c.json {
				for i, m := range ms {
					for _, cnt := range m.Counts {
						enc.Encode(runLine{Kind: "run", Workload: w.Name, Ops: n, Repeat: rep, Region: i + 1, Event: cnt.Event,
							Value: cnt.Value, PerOp: float64(cnt.Value) / float64(n), Source: cnt.Source,
							Multiplexed: cnt.Multiplexed, Preempted: cnt.Preempted, WallNs: m.WallNs, CPUNs: m.CPUNs, Machine: m.Machine})
					}
				}
			}
		}
		for j, ev := range evs {
			vals := make([]float64, len(all))
			plex, preempted := 0, 0
			for i, m := range all {
				vals[i] = float64(m.Counts[j].Value) / float64(n)
				if m.Counts[j].Multiplexed {
					plex++
				}
				if m.Counts[j].Preempted {
					preempted++
				}
			}
			s := summarise(vals)
			src := all[0].Counts[j].Source
			if c.json {
				if len(all) > 1 {
					enc.Encode(summaryLine{Kind: "summary", Workload: w.Name, Event: ev.Name, Source: src, summary: s})
				}
				continue
			}
			mark := ""
			if plex > 0 {
				mark = fmt.Sprintf(" [multiplexed %d/%d]", plex, len(all))
			}
			if preempted > 0 {
				mark += fmt.Sprintf(" [preempted %d/%d]", preempted, len(all))
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s\t%.4f%%%s\t\n", w.Name, n, ev.Name, group3(s.Median), src,
				s.N, group3(s.Min), group3(s.Max), 100*s.Spread, mark)
		}
	}
	return tw.Flush()
}

// preemptAttempts is how many fresh processes count a workload's region
// before a count whose region the scheduler preempted is reported as it is
// (marked "preempted"). The quiet start holds on an idle machine; the
// retries are for a busy one, where the counting process can be held off
// the CPU past the quiet start's delay.
const preemptAttempts = 3

// anyPreempted reports whether a count of ms was preempted.
func anyPreempted(ms []measured) bool {
	for _, m := range ms {
		for _, c := range m.Counts {
			if c.Preempted {
				return true
			}
		}
	}
	return false
}

// measureInChild counts one workload in a fresh process: regions regions of
// ops operations each, one after another, each prepared afresh or, with
// rerun, all on the first preparation. gate, when not nil, is the caller's
// go and done pipes, passed on to the child (see gateChild).
func measureInChild(ctx context.Context, self string, backend perfcount.Backend, events, name string, ops, regions int, keep string, rerun bool, gate []*os.File) ([]measured, error) {
	childArgs := []string{measureCmd, "--backend", string(backend), "-n", strconv.Itoa(ops), "--quiet-start"}
	if regions > 1 {
		childArgs = append(childArgs, "--regions", strconv.Itoa(regions))
	}
	if rerun {
		childArgs = append(childArgs, "--rerun")
	}
	if gate != nil {
		childArgs = append(childArgs, "--gate")
	}
	if keep != "" {
		childArgs = append(childArgs, "--keep-dump", keep)
	}
	if events != "" {
		childArgs = append(childArgs, "-e", events)
	}
	childArgs = append(childArgs, name)
	env := os.Environ()
	var cmd *exec.Cmd
	switch backend {
	case perfcount.BackendCallgrind:
		dir, err := os.MkdirTemp("", "purecount-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		out := filepath.Join(dir, "callgrind.out")
		vgArgs := append(perfcount.CallgrindArgs(out), "--log-file="+filepath.Join(dir, "valgrind.log"), self)
		cmd = exec.CommandContext(ctx, "valgrind", append(vgArgs, childArgs...)...)
		env = append(env, perfcount.CallgrindEnv(out)...)
		defer func() {
			if cmd.ProcessState != nil && !cmd.ProcessState.Success() {
				b, _ := os.ReadFile(filepath.Join(dir, "valgrind.log"))
				fmt.Fprintln(os.Stderr, "valgrind log:", lastLines(string(b), 8))
			}
		}()
	default:
		cmd = exec.CommandContext(ctx, self, childArgs...)
		env = append(env, "GOGC=off", "GOMAXPROCS=1")
	}
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	after, cleanup, err := quiet.Parent(cmd, quietDelay)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	cmd.ExtraFiles = append(cmd.ExtraFiles, gate...) // fd 5 and 6 in the child
	err = cmd.Start()
	if err == nil {
		if herr := after(); herr != nil {
			cmd.Process.Kill()
		}
		err = cmd.Wait()
	}
	if err != nil {
		msg := lastLines(errb.String(), 3)
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg = strings.TrimPrefix(msg, "pure-count: ")
			return nil, fmt.Errorf("workload %s: %s (child %v)", name, msg, ee.ProcessState)
		}
		return nil, fmt.Errorf("workload %s: starting the child: %w", name, err)
	}
	// One JSON object per region.
	var ms []measured
	dec := json.NewDecoder(&out)
	for {
		var m measured
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("workload %s: the child printed no result (%v); stderr: %s", name, err, lastLines(errb.String(), 3))
		}
		ms = append(ms, m)
	}
	if len(ms) != regions {
		return nil, fmt.Errorf("workload %s: the child printed %d results for %d regions; stderr: %s", name, len(ms), regions, lastLines(errb.String(), 3))
	}
	return ms, nil
}

// cmdMeasure runs in the fresh child: it prepares the workload, counts it in
// one region and prints one JSON object; with --regions K it does so K times,
// preparing each region afresh outside the count and collecting the garbage
// of the one before, so every region starts from the same kind of heap.
func cmdMeasure(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet(measureCmd, flag.ContinueOnError)
	backendName := fs.String("backend", "perf", "")
	events := fs.String("e", "instructions", "")
	ops := fs.Int("n", 1, "")
	keep := fs.String("keep-dump", "", "")
	quietStart := fs.Bool("quiet-start", false, "")
	regions := fs.Int("regions", 1, "")
	rerun := fs.Bool("rerun", false, "")
	gated := fs.Bool("gate", false, "")
	emulated := fs.Bool("qemu", false, "")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 || *regions < 1 {
		return usageError("__measure is internal: --backend B -e EVENTS -n OPS WORKLOAD")
	}
	backend, err := perfcount.ParseBackend(*backendName)
	if err != nil {
		return err
	}
	evs, err := perfcount.ParseEvents(*events)
	if err != nil {
		return err
	}
	w, ok := workload.Lookup(fs.Arg(0))
	if !ok {
		return fmt.Errorf("no workload %q", fs.Arg(0))
	}
	runFn, cleanup, err := w.New(*ops)
	if err != nil {
		return fmt.Errorf("preparing %s: %w", w.Name, err)
	}
	defer func() {
		if cleanup != nil {
			cleanup()
		}
	}()
	if *emulated {
		return measureQemuGuest(w.Name, *ops, runFn, *quietStart, stdout)
	}
	r, err := perfcount.NewRegion(backend, evs)
	if err != nil {
		return noPMUAdvice(err, evs)
	}
	defer r.Close()
	r.KeepCallgrindDump(*keep)
	if *quietStart {
		quiet.SettleHeap()
		quiet.GrowStack(stackReserve)
		if err := quiet.Child(); err != nil {
			return err
		}
	}
	var g *gateChild
	if *gated {
		if g, err = openGateChild(); err != nil {
			return err
		}
		defer g.close()
	}
	enc := json.NewEncoder(stdout)
	var machine perfcount.Machine
	if g != nil {
		if err := g.done(); err != nil { // ready for region 1
			return err
		}
	}
	for i := 1; ; i++ {
		if g != nil {
			if err := g.wait(i); err != nil {
				return err
			}
		}
		if i > 1 {
			// Release the last region's state, prepare afresh (or keep
			// it, with --rerun), and collect now (GOGC=off) so no
			// collection falls inside the region.
			if !*rerun {
				if cleanup != nil {
					cleanup()
				}
				runFn, cleanup = nil, nil
				if runFn, cleanup, err = w.New(*ops); err != nil {
					return fmt.Errorf("preparing %s for region %d: %w", w.Name, i, err)
				}
			}
			runtime.GC()
		}
		wall, cpu, err := timedMeasure(r, runFn)
		if err != nil {
			return err
		}
		// Only after the first region: reading the machine's facts makes
		// system calls, which would wake sysmon that the quiet start put
		// to sleep (under callgrind that moved the sort's count by ~0.003 %).
		if i == 1 {
			machine = perfcount.ThisMachine()
		}
		if err := enc.Encode(measured{
			Workload: w.Name, Ops: *ops, Counts: r.Counts(), WallNs: wall, CPUNs: cpu, Machine: machine,
		}); err != nil {
			return err
		}
		if g != nil {
			if err := g.done(); err != nil {
				return err
			}
		}
		if i == *regions {
			return nil
		}
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
