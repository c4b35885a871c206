package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"workbench/experiments/lab/stats"
	"workbench/perfcount"
)

// common holds the flags stat and run share.
type common struct {
	events  string
	repeat  int
	backend string
	json    bool
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.events, "e", "", "comma-separated events (default instructions)")
	fs.IntVar(&c.repeat, "r", 1, "repeat `N` times (fresh processes) and summarise")
	fs.StringVar(&c.backend, "backend", "perf", "perf (perf_event; hardware events need a PMU) or callgrind (valgrind; instructions only)")
	fs.BoolVar(&c.json, "json", false, "print one JSON object per line")
}

func (c *common) parse() (perfcount.Backend, []perfcount.Event, error) {
	b, err := perfcount.ParseBackend(c.backend)
	if err != nil {
		return "", nil, usageError(err.Error())
	}
	if c.repeat < 1 {
		return "", nil, usageError(fmt.Sprintf("-r %d: repeat at least once", c.repeat))
	}
	spec := c.events
	if spec == "" {
		spec = "instructions"
	}
	evs, err := perfcount.ParseEvents(spec)
	if err != nil {
		return "", nil, usageError(err.Error())
	}
	if b == perfcount.BackendCallgrind {
		if len(evs) != 1 || evs[0].Type != 0 || evs[0].Config != 1 {
			advice := "drop -e"
			if perfCounts(evs) {
				advice += " or use --backend perf, which counts them here"
			}
			return "", nil, usageError(fmt.Sprintf("-e %s: the callgrind backend counts instructions only (its Ir); %s", spec, advice))
		}
	}
	return b, evs, nil
}

// synopses are the subcommands' one-line synopses, for their -h.
var synopses = map[string]string{
	"stat": "usage: pure-count stat [flags] -- CMD [ARGS...]",
	"run":  "usage: pure-count run [flags] WORKLOAD...",
}

// newFlagSet returns an empty flag set for a subcommand. It prints
// nothing itself: parseFlags reports a bad flag once, and -h.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("pure-count "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// errHelp is returned by parseFlags after it printed a subcommand's help:
// the command then exits 0.
var errHelp = errors.New("help printed")

// parseFlags parses a subcommand's flags. -h or --help prints the
// subcommand's synopsis and every flag to stdout and returns errHelp; a
// bad flag is a usageError, printed once by main with where to find the
// flags.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	err := fs.Parse(args)
	name := strings.TrimPrefix(fs.Name(), "pure-count ")
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(stdout, "%s\n\nflags:\n", synopses[name])
		printDefaults(fs, stdout)
		return errHelp
	case err != nil:
		return usageError(fmt.Sprintf("%s: %v (pure-count %s -h lists its flags)", name, err, name))
	}
	return nil
}

// printDefaults prints fs's flags to w, as flag.PrintDefaults does.
func printDefaults(fs *flag.FlagSet, w io.Writer) {
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// summary is min, median and max of repeated values and their spread.
type summary struct {
	N      int       `json:"n"`
	Min    float64   `json:"min"`
	Median float64   `json:"median"`
	Max    float64   `json:"max"`
	Spread float64   `json:"spread"`
	Values []float64 `json:"values"`
}

func summarise(vals []float64) summary {
	med, lo, hi := stats.Median(vals), slices.Min(vals), slices.Max(vals)
	sp := 0.0
	if med != 0 {
		sp = (hi - lo) / med
	}
	return summary{N: len(vals), Min: lo, Median: med, Max: hi, Spread: sp, Values: vals}
}

// perfCounts reports whether perf_event can count evs on this machine.
func perfCounts(evs []perfcount.Event) bool {
	r, err := perfcount.NewRegion(perfcount.BackendPerf, evs)
	if err != nil {
		return false
	}
	r.Close()
	return true
}

// noPMUAdvice corrects the advice of a perf error for an event no backend
// counts here: perfcount's ErrNoPMU says to use --backend callgrind, which
// counts instructions only, so for any other event that advice would lead
// to callgrind's refusal. Other errors are returned as they are.
func noPMUAdvice(err error, evs []perfcount.Event) error {
	if !errors.Is(err, perfcount.ErrNoPMU) {
		return err
	}
	for _, ev := range evs {
		if ev.Type != 0 || ev.Config != 1 { // not instructions
			msg, _ := strings.CutSuffix(err.Error(), "; use --backend callgrind")
			return advised{msg: fmt.Sprintf("%s; callgrind counts instructions only, so no backend counts %s on this machine: choose software events (task-clock, page-faults, ...; pure-count events marks them) or instructions with --backend callgrind",
				msg, ev.Name), err: err}
		}
	}
	return err
}

// advised is an error whose message replaces the advice of the error it
// wraps.
type advised struct {
	msg string
	err error
}

func (e advised) Error() string { return e.msg }
func (e advised) Unwrap() error { return e.err }
