package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"workbench/experiments/lab/bisect"
)

const bisectUsage = `usage: pure-pairs bisect --good REV --bad REV --workload W [flags]
       pure-pairs bisect good=REV bad=REV workload=W [threshold=1%] [repeat=3] [suite=apps]
       pure-pairs bisect repo=PATH good=REV bad=REV bench=Name [pkg=./...] [threshold=1%] [repeat=3]

Finds the first commit on the first-parent path from good (exclusive) to bad
(inclusive) whose instruction count per operation of workload W rises beyond
the threshold over good's. Each commit's pure-count is built (cached by
commit, shared with run) and measured under the same controls as run, with

    pure-count run --backend B -n OPS -r REPEAT --json W

where OPS comes from the suite's line for W and B is perf (instructions:u)
when perf_event can count instructions on this machine, else callgrind. A
commit's count is the median of its REPEAT measurements. Good and bad are
measured first: the threshold applied is the larger of the one given and the
spread of the counts at good, and unless bad is above it bisect stops and
says so. Then it halves the range, assuming the rise stays once it came. A
commit that does not build, or whose measurement fails, is skipped, as by
git bisect skip, and reported.

With repo=PATH it bisects a Go benchmark of that git repository instead:
bench=Name names it as pairs does (Sum for BenchmarkSum, Parse/small for a
sub-benchmark); each commit's test binaries are built in a worktree of that
repository (cached with pairs), and its instructions per op are counted
under callgrind from two iteration counts chosen at good.

It prints each commit measured, with its count and its ratio to good's, then
the first bad commit, its subject line and its ratio. When skipped commits
hide the answer, it lists the candidates and exits with status 1.

Operands of the form NAME=VALUE set the flag of that name; up to two bare
operands are the good and bad revisions.

Flags:
`

// percent is a flag.Value holding a fraction, written as a percentage with
// its % sign ("1%", "0.5%"), as in criteria files.
type percent struct{ p *float64 }

func (v percent) String() string {
	if v.p == nil || *v.p == 0 {
		return ""
	}
	return strconv.FormatFloat(100**v.p, 'g', -1, 64) + "%"
}

func (v percent) Set(s string) error {
	num, ok := strings.CutSuffix(strings.TrimSpace(s), "%")
	f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if !ok || err != nil || f <= 0 || f >= 100 {
		return errors.New("want a percentage with its % sign, e.g. 1% or 0.5%")
	}
	*v.p = f / 100
	return nil
}

// newBisectFlags defines the bisect subcommand's flags on o.
func newBisectFlags(o *bisect.Options, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("pure-pairs bisect", flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		synopsis, _, _ := strings.Cut(bisectUsage, "\n\n")
		fmt.Fprintf(fs.Output(), "%s\n(pure-pairs bisect -h describes every flag)\n", synopsis)
	}
	fs.StringVar(&o.Good, "good", "", "a `revision` where the count is as it should be")
	fs.StringVar(&o.Bad, "bad", "", "a later `revision`, on good's first-parent path, where the count has risen")
	fs.StringVar(&o.Workload, "workload", "", "the `workload` whose count rose (pure-count list names them)")
	fs.Var(percent{&o.Threshold}, "threshold", "the rise over good's count that makes a commit bad, as a `percentage` (default 1%)")
	fs.IntVar(&o.Repeat, "repeat", 0, "`N` measurements of each commit, in fresh processes; the median counts (default 3)")
	fs.IntVar(&o.Ops, "ops", 0, "operations per measurement (`N`), instead of the suite's")
	fs.StringVar(&o.Backend, "backend", "", "the `backend`, perf or callgrind (default: perf when it can count instructions here, else callgrind)")
	o.Options.Flags(fs)
	goBenchFlags(fs, &o.GoBench)
	return fs
}

// printBisectHelp prints the full usage of the bisect subcommand.
func printBisectHelp(w io.Writer) {
	fs := newBisectFlags(new(bisect.Options), w)
	fmt.Fprint(w, bisectUsage)
	fs.PrintDefaults()
}

// bisectOptions parses the arguments of the bisect subcommand.
func bisectOptions(args []string, stderr io.Writer) (bisect.Options, error) {
	var o bisect.Options
	fs := newBisectFlags(&o, stderr)
	bare, err := parseArgs(fs, args)
	if err != nil {
		return o, err
	}
	for _, rev := range bare {
		switch {
		case o.Good == "":
			o.Good = rev
		case o.Bad == "":
			o.Bad = rev
		default:
			fmt.Fprintf(stderr, "unexpected operand %q: good and bad are already %s and %s\n", rev, o.Good, o.Bad)
			fs.Usage()
			return o, errUsage
		}
	}
	if o.GoBench != nil && o.Workload == "" {
		// With repo=, bench=Name names the benchmark bisected.
		o.Workload, o.GoBench.Bench = o.GoBench.Bench, ""
	}
	switch {
	case o.GoBench != nil && o.GoBench.Repo == "":
		fmt.Fprintln(stderr, "bench= and pkg= bisect a Go benchmark of repo=PATH: name the repository")
	case o.Good == "" || o.Bad == "":
		fmt.Fprintln(stderr, "both --good and --bad are needed")
	case o.Workload == "":
		fmt.Fprintln(stderr, "name the workload whose count rose: --workload W (or workload=W)")
	default:
		return o, nil
	}
	fs.Usage()
	return o, errUsage
}

// errHidden is returned when skipped commits hide the first bad commit.
var errHidden = errors.New("skipped commits hide the first bad commit")

// runBisect runs the bisect subcommand.
func runBisect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := bisectOptions(args, stderr)
	if err != nil {
		return err
	}
	o.Log = stderr
	o.OnStep = func(s bisect.Step) { printStep(stdout, s) }
	res, err := bisect.Run(ctx, o)
	if err != nil {
		return err
	}
	printBisectResult(stdout, res)
	if res.First == nil {
		return errHidden
	}
	return nil
}

// printStep prints one commit a bisection measured or skipped:
//
//	candidate  1a2b3c4      2,370,011 instructions/op  ×1.0323  +3.23 %  above  slow down sort
func printStep(w io.Writer, s bisect.Step) {
	if s.Skipped != "" {
		fmt.Fprintf(w, "%-9s  %.7s  skipped: %s  %s\n", s.Role, s.Commit, s.Skipped, s.Subject)
		return
	}
	mark := "below"
	switch {
	case s.Role == bisect.RoleGood:
		mark = "good"
	case s.Bad:
		mark = "above"
	}
	fmt.Fprintf(w, "%-9s  %.7s  %13s /op  ×%.4f  %+6.2f %%  %-5s  %s\n",
		s.Role, s.Commit, fmtCount(s.Count), s.Ratio, 100*(s.Ratio-1), mark, s.Subject)
}

// printBisectResult prints what a bisection found.
func printBisectResult(w io.Writer, r *bisect.Result) {
	commits := "commits"
	if r.Commits == 1 {
		commits = "commit"
	}
	fmt.Fprintf(w, "%d %s after good, %s %s per op (%s, %d ops), threshold %s (noise at good %s)\n",
		r.Commits, commits, r.Workload, r.Event, r.Backend, r.Ops, fmtPercent(r.Threshold), fmtPercent(r.Noise))
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "skipped %.7s %s: %s\n", s.Commit, s.Subject, s.Skipped)
	}
	if r.First == nil {
		fmt.Fprintf(w, "the first bad commit could be any of (skipped commits hide it):\n")
		for _, c := range r.Candidates {
			fmt.Fprintf(w, "  %s\n", c)
		}
		return
	}
	f := r.First
	fmt.Fprintf(w, "first bad commit: %s %s\n", f.Commit, f.Subject)
	fmt.Fprintf(w, "  %s: %s → %s %s per op, ×%.4f (%+.2f %%) over good %.7s\n",
		r.Workload, fmtCount(r.Good.Count), fmtCount(f.Count), r.Event, f.Ratio, 100*(f.Ratio-1), r.Good.Commit)
}

// fmtCount formats a count with thousands separators.
func fmtCount(v float64) string {
	s := strconv.FormatFloat(v, 'f', 0, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fmtPercent formats a fraction as a percentage: 0.01 → "1 %".
func fmtPercent(f float64) string {
	return strconv.FormatFloat(100*f, 'g', 3, 64) + " %"
}
