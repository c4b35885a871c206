package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"workbench/experiments/lab/bisect"
	"workbench/experiments/lab/pairs"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "pure-pairs:", err)
		}
		os.Exit(exitCode(err))
	}
}

// errUsage marks an error whose explanation, with the usage, is already
// printed.
var errUsage = errors.New("usage")

// exitCode is 2 for usage errors, 130 (as for SIGINT) when interrupted, and
// 1 otherwise (a failure, no rise to bisect, or a first bad commit hidden by
// skipped commits).
func exitCode(err error) int {
	switch {
	case errors.Is(err, errUsage):
		return 2
	case errors.Is(err, context.Canceled):
		return 130
	}
	return 1
}

const usage = `usage: pure-pairs run --before REV --after REV [flags]
       pure-pairs run before=REV after=REV [pairs=N] [max-pairs=N] [max-time=D] [suite=NAME] [exp=NAME] [resume=1]
       pure-pairs run repo=PATH before=REV after=REV [pkg=./...] [bench=REGEXP] [pairs=N] [exp=NAME]
       pure-pairs run module=PATH before=VERSION after=VERSION [pkg=...] [bench=...] [exp=NAME]
       pure-pairs criteria exp=NAME

Builds cmd/pure-count (and any other tool the suite names) at two revisions,
caching the binaries by commit; runs the suite's workloads on both sides in
alternating pairs (pair 1 before then after, pair 2 after then before, ...),
under identical controls (same program path, argv, environment and working
directory; ASLR off with setarch -R; pinned with taskset); and appends one
JSON line per run to experiments/EXP/runs.jsonl, synced as each run ends.
A run that fails is recorded with its exit status and stderr, and the others
go on. Interrupted, it keeps every finished run: continue with --resume.

After the pairs, it judges; a workload left unknown that more pairs may
decide (an interval straddling its threshold, too few clean pairs) gets two
more pairs at a time, alone, up to --max-pairs in all, and is judged by the
sequential rule (experiments/lab/judge/sequential.go), whose chance of a
false verdict over all the looks stays within the confidence it states
(2.5 % on each side at 95 %), whatever --max-pairs is.
With a time budget (--max-time, or the suite's max-time line) no step of
added pairs starts when it would end past the budget; what it stops stays
unknown, which only lowers the chance of a false verdict.
The note says how many pairs each workload took and why.

When before and after are the same commit the experiment is an A/A run
(meta.json: "aa": true), which measures the noise of each workload: once all
its runs are recorded they are stored, replacing older ones, as the
calibration of that commit and suite, CALIBRATION/COMMIT-SUITE.jsonl. A later
experiment whose before commit has a calibration for its suite copies it into
its directory as calibration.jsonl (meta.json says from where), and the
judge takes its spread as the noise floor of counts.

The harness, the suite and the experiments directory come from the current
checkout; only the measured binaries come from the two revisions.

With repo=PATH (a git repository of any Go module) or module=PATH (a module
from the module proxy) it judges that module's own benchmarks instead of a
suite: each side's packages matching pkg are built with go test -c (in a
worktree of that repository, or a writable copy of the module version,
cached by commit or version); each benchmark matching bench that both sides
have, sub-benchmarks each on their own, is run natively
(-test.benchtime=Nx, one N for both sides from a short probe) and counted
under callgrind ((Ir(N2x) - Ir(N1x)) / (N2 - N1)); benchmarks on one side
only, and those whose probe fails, are listed in the note, not judged. The
criteria are the experiment directory's own file when one is there before
the run (pure-pairs criteria exp=NAME writes the defaults to edit, and
stops), else the defaults, and the note says which.

Operands of the form NAME=VALUE set the flag of that name (the form just
passes them in); up to two bare operands are the before and after revisions.

Flags:
`

// parseArgs parses flags and NAME=VALUE operands, which may be
// interleaved, and returns the bare operands. On error the explanation and
// the synopsis are printed to fs's output and the error is errUsage.
func parseArgs(fs *flag.FlagSet, args []string) (bare []string, err error) {
	// Parse up to each operand, take it, and go on.
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return nil, errUsage
		}
		rest = fs.Args()
		if len(rest) == 0 {
			return bare, nil
		}
		op := rest[0]
		rest = rest[1:]
		name, value, ok := strings.Cut(op, "=")
		if !ok {
			bare = append(bare, op)
			continue
		}
		if fs.Lookup(name) == nil {
			fmt.Fprintf(fs.Output(), "unknown operand %q: %s is not a flag\n", op, name)
			fs.Usage()
			return nil, errUsage
		}
		if err := fs.Set(name, value); err != nil {
			fmt.Fprintf(fs.Output(), "operand %q: %v\n", op, err)
			fs.Usage()
			return nil, errUsage
		}
	}
}

// options parses the arguments of the run subcommand.
func options(args []string, stderr io.Writer) (pairs.Options, error) {
	var o pairs.Options
	fs := newFlags(&o, stderr)
	bare, err := parseArgs(fs, args)
	if err != nil {
		return o, err
	}
	for _, rev := range bare {
		switch {
		case o.Before == "":
			o.Before = rev
		case o.After == "":
			o.After = rev
		default:
			fmt.Fprintf(stderr, "unexpected operand %q: before and after are already %s and %s\n", rev, o.Before, o.After)
			fs.Usage()
			return o, errUsage
		}
	}
	if o.Before == "" || o.After == "" {
		fmt.Fprintln(stderr, "both --before and --after are needed")
		fs.Usage()
		return o, errUsage
	}
	if err := checkGoBench(o.GoBench); err != nil {
		fmt.Fprintln(stderr, err)
		fs.Usage()
		return o, errUsage
	}
	if err := checkSuiteWithGoBench(fs, o.GoBench); err != nil {
		fmt.Fprintln(stderr, err)
		fs.Usage()
		return o, errUsage
	}
	return o, nil
}

// newFlags defines the run subcommand's flags on o. Its Usage prints the
// synopsis and a pointer to the full help, which printHelp prints.
func newFlags(o *pairs.Options, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("pure-pairs run", flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		synopsis, _, _ := strings.Cut(usage, "\n\n")
		fmt.Fprintf(fs.Output(), "%s\n(pure-pairs help describes every flag)\n", synopsis)
	}
	fs.StringVar(&o.Before, "before", "", "the `revision` judged against (commit, branch, tag, HEAD~1, ...)")
	fs.StringVar(&o.After, "after", "", "the `revision` judged")
	fs.Var(positive{&o.Pairs}, "pairs", "`N` before/after pairs, at least 1 (default: the suite's, else 6)")
	fs.Var(positive{&o.MaxPairs}, "max-pairs", fmt.Sprintf("at most `N` pairs in all for a workload the judge leaves unknown after the first ones:\nit gets two more at a time until decided (default: the suite's max-pairs line, else %d;\nequal to pairs to add none)", pairs.DefaultMaxPairs))
	fs.DurationVar(&o.MaxTime, "max-time", 0, "time budget for adding pairs: no step of two more pairs starts when it would end\nmore than `D` after the experiment's start (its pairs so far estimate it); the workloads\nit stops stay unknown (default: the suite's max-time line, else none)")
	fs.StringVar(&o.Experiment, "exp", "", "experiment directory `name` under EXPERIMENTS/ (default: the next free NNN-pairs-BEFORE-AFTER)")
	fs.BoolVar(&o.Resume, "resume", false, "continue an experiment that has runs, skipping the recorded cells\n(without --exp: the latest experiment of these two commits)")
	fs.StringVar(&o.CalibrationDir, "calibration", "", "`directory` of the A/A calibration of each commit and suite (default: REPO/data/calibration)")
	o.Options.Flags(fs)
	goBenchFlags(fs, &o.GoBench)
	return fs
}

// printHelp prints the full usage of the run subcommand.
func printHelp(w io.Writer) {
	fs := newFlags(new(pairs.Options), w)
	fmt.Fprint(w, usage)
	fs.PrintDefaults()
}

// printSynopsis prints both subcommands' synopses.
func printSynopsis(w io.Writer) {
	newFlags(new(pairs.Options), w).Usage()
	newBisectFlags(new(bisect.Options), w).Usage()
}

// wantsHelp reports whether args, up to "--", ask for help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}

// positive is a flag.Value holding a count of at least 1. Zero is refused:
// it would silently mean the suite's default.
type positive struct{ n *int }

func (v positive) String() string {
	if v.n == nil || *v.n == 0 {
		return ""
	}
	return strconv.Itoa(*v.n)
}

func (v positive) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a whole number: give N of at least 1, or leave it out for the suite's", s)
	case n < 1:
		return fmt.Errorf("%d: want at least 1 pair, or leave it out for the suite's (else %d)", n, pairs.DefaultPairs)
	}
	*v.n = n
	return nil
}

// run is the whole command, with its arguments after the program name.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printSynopsis(stderr)
		return errUsage
	}
	switch args[0] {
	case "run":
	case "criteria":
		if wantsHelp(args[1:]) {
			fmt.Fprint(stdout, criteriaUsage)
			return nil
		}
		return runCriteria(ctx, args[1:], stdout, stderr)
	case "bisect":
		if wantsHelp(args[1:]) {
			printBisectHelp(stdout)
			return nil
		}
		return runBisect(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		printHelp(stdout)
		fmt.Fprintln(stdout)
		printBisectHelp(stdout)
		return nil
	default:
		fmt.Fprintf(stderr, "unknown command %q\n", args[0])
		printSynopsis(stderr)
		return errUsage
	}
	if wantsHelp(args[1:]) {
		printHelp(stdout)
		return nil
	}
	o, err := options(args[1:], stderr)
	if err != nil {
		return err
	}
	o.Log = stderr
	o.Progress = stdout
	o.Terminal = isTerminal(stdout)
	o.Decide = decideFromNote

	res, err := pairs.Run(ctx, o)
	if err != nil {
		return err
	}
	if err := judgeAndWrite(ctx, res, stdout, stderr); err != nil {
		return err
	}
	if res.CalibrationSaved != "" {
		fmt.Fprintf(stdout, "A/A experiment: its runs are now the calibration of %.7s for suite %s, in %s\n",
			res.Meta.Before.Commit, res.Meta.Suite, res.CalibrationSaved)
	}
	return nil
}

// isTerminal reports whether w is a terminal, where progress is one line
// updated in place.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
