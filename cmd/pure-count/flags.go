package main

import (
	"flag"
	"fmt"
	"io"
	"slices"

	"workbench/experiments/lab/judge"
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
			return "", nil, usageError(fmt.Sprintf("-e %s: the callgrind backend counts instructions only (its Ir); drop -e or use --backend perf", spec))
		}
	}
	return b, evs, nil
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("pure-count "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
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
	med, lo, hi := judge.Median(vals), slices.Min(vals), slices.Max(vals)
	sp := 0.0
	if med != 0 {
		sp = (hi - lo) / med
	}
	return summary{N: len(vals), Min: lo, Median: med, Max: hi, Spread: sp, Values: vals}
}
