package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"workbench/perfcount"
)

// statLine is one JSON line of `stat --json` for one run and event.
type statLine struct {
	Kind        string           `json:"kind"`
	Command     string           `json:"command"`
	Repeat      int              `json:"repeat"`
	Event       string           `json:"event"`
	Value       uint64           `json:"value"`
	Source      perfcount.Source `json:"source"`
	Multiplexed bool             `json:"multiplexed"`
	EnabledNs   int64            `json:"enabled_ns,omitempty"`
	RunningNs   int64            `json:"running_ns,omitempty"`
	// WallNs, UserNs, SystemNs and MaxRSS are the command's; under
	// callgrind they would be valgrind's, and are left out.
	WallNs   int64             `json:"wall_ns,omitempty"`
	UserNs   int64             `json:"user_ns,omitempty"`
	SystemNs int64             `json:"system_ns,omitempty"`
	MaxRSS   int64             `json:"max_rss_bytes,omitempty"`
	ExitCode int               `json:"exit_code"`
	Machine  perfcount.Machine `json:"machine"`
}

// summaryLine is the JSON line that closes a repeated measurement.
type summaryLine struct {
	Kind     string           `json:"kind"`
	Command  string           `json:"command,omitempty"`
	Workload string           `json:"workload,omitempty"`
	Event    string           `json:"event"`
	Source   perfcount.Source `json:"source"`
	summary
}

func cmdStat(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlagSet("stat")
	c.register(fs)
	if err := parseFlags(fs, args, stdout); err != nil {
		if errors.Is(err, errHelp) {
			return nil // -h: the help is printed
		}
		return err
	}
	argv := fs.Args()
	if len(argv) == 0 {
		return usageError("stat: no command to count: pure-count stat [flags] -- CMD [ARGS...]")
	}
	backend, evs, err := c.parse()
	if err != nil {
		return err
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return fmt.Errorf("stat: command %q not found: %v", argv[0], err)
	}
	name := strings.Join(argv, " ")
	var results []*perfcount.Result
	for i := 1; i <= c.repeat; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		cmd := exec.CommandContext(ctx, path, argv[1:]...)
		cmd.Args[0] = argv[0]
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stderr, stderr
		res, err := perfcount.CountCommand(backend, evs, cmd)
		if err != nil {
			return noPMUAdvice(err, evs)
		}
		results = append(results, res)
		if c.json {
			enc := json.NewEncoder(stdout)
			for _, cnt := range res.Counts {
				l := statLine{
					Kind: "run", Command: name, Repeat: i, Event: cnt.Event, Value: cnt.Value,
					Source: cnt.Source, Multiplexed: cnt.Multiplexed,
					EnabledNs: int64(cnt.Enabled), RunningNs: int64(cnt.Running),
					ExitCode: res.ExitCode, Machine: res.Machine,
				}
				if backend != perfcount.BackendCallgrind {
					l.WallNs, l.UserNs, l.SystemNs = int64(res.Wall), int64(res.Rusage.User), int64(res.Rusage.System)
					l.MaxRSS = res.Rusage.MaxRSS
				}
				enc.Encode(l)
			}
		}
	}
	if c.json {
		if c.repeat > 1 {
			enc := json.NewEncoder(stdout)
			for j, ev := range evs {
				enc.Encode(summaryLine{Kind: "summary", Command: name, Event: ev.Name,
					Source: results[0].Counts[j].Source, summary: summarise(column(results, j))})
			}
		}
	} else {
		printStat(stdout, name, evs, results)
	}
	if code := results[len(results)-1].ExitCode; code != 0 {
		return exitStatus{code: code, msg: fmt.Sprintf("stat: %s exited with status %d (counts above are for that run)", argv[0], code)}
	}
	return nil
}

// exitStatus is the counted command's non-zero exit status, which stat
// exits with, as perf stat does.
type exitStatus struct {
	code int
	msg  string
}

func (e exitStatus) Error() string { return e.msg }

func column(results []*perfcount.Result, j int) []float64 {
	v := make([]float64, len(results))
	for i, r := range results {
		v[i] = float64(r.Counts[j].Value)
	}
	return v
}

func printStat(w io.Writer, name string, evs []perfcount.Event, results []*perfcount.Result) {
	src := results[0].Counts[0].Source
	fmt.Fprintf(w, "\n Counts for '%s' (%d run(s), source %s):\n\n", name, len(results), src)
	for j, ev := range evs {
		if len(results) == 1 {
			c := results[0].Counts[j]
			mark := ""
			if c.Multiplexed {
				mark = fmt.Sprintf("  [multiplexed: counted %.1f%% of the time, not scaled]", 100*float64(c.Running)/float64(c.Enabled))
			}
			fmt.Fprintf(w, " %18s  %-20s%s\n", group3(float64(c.Value)), ev.Name, mark)
			continue
		}
		s := summarise(column(results, j))
		fmt.Fprintf(w, " %18s  %-20s min %s  max %s  spread %.3f%%%s\n", group3(s.Median), ev.Name,
			group3(s.Min), group3(s.Max), 100*s.Spread, multiplexedNote(results, j))
	}
	r := results[len(results)-1]
	if src == perfcount.SourceCallgrind {
		fmt.Fprint(w, "\n (no times or RSS: under callgrind they are valgrind's, not the command's; use --backend perf)\n\n")
		return
	}
	fmt.Fprintf(w, "\n %18.6f  seconds wall\n %18.6f  seconds user\n %18.6f  seconds sys\n %18s  max RSS KiB\n\n",
		r.Wall.Seconds(), r.Rusage.User.Seconds(), r.Rusage.System.Seconds(), group3(float64(r.Rusage.MaxRSS/1024)))
}

func multiplexedNote(results []*perfcount.Result, j int) string {
	n := 0
	for _, r := range results {
		if r.Counts[j].Multiplexed {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("  [multiplexed in %d of %d runs, not scaled]", n, len(results))
}

// group3 formats a count with thousands separators.
func group3(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	if v != float64(int64(v)) && v < 1e6 {
		s = fmt.Sprintf("%.1f", v)
	}
	intPart, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(intPart, "-")
	intPart = strings.TrimPrefix(intPart, "-")
	var b strings.Builder
	for i, ch := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	out := b.String()
	if neg {
		out = "-" + out
	}
	if frac != "" {
		out += "." + frac
	}
	return out
}
