// Command spread prints one line per workload of a `pure-count run --json`
// file: the median count per operation, the extremes and the spread.
//
//	go run ./notebooks/lessons/spread [-bound PCT -near W=REF,... [-tol PCT]] FILE.jsonl
//
// With -bound it prints, instead, only what stays true from run to run of
// a workload whose count varies a little: whether the spread is under PCT
// percent, and whether the median lies within -tol percent of the
// reference count -near gives for it. A rounded figure would not do: a
// median near a rounding boundary rounds up in one run and down in the
// next (store-put's runs of 13,439 and 13,513 round to 13,000 and 14,000).
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"strconv"
	"strings"

	"workbench/notebooks/lessons"
)

func main() {
	log.SetFlags(0)
	bound := flag.Float64("bound", 0, "print only whether the spread is under `PCT` % and the median near its reference")
	near := flag.String("near", "", "reference counts per op, `W=REF,...` (with -bound)")
	tol := flag.Float64("tol", 2, "how far from its reference a median may be, in `PCT` % (with -bound)")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: spread [-bound PCT] FILE.jsonl (written by pure-count run --json)")
	}
	refs := map[string]float64{}
	for _, kv := range strings.Split(*near, ",") {
		if w, v, ok := strings.Cut(kv, "="); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				log.Fatalf("-near %s: %v", kv, err)
			}
			refs[w] = f
		}
	}
	runs, err := lessons.ReadRuns(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	var order []string
	vals := map[string][]float64{}
	for _, r := range runs {
		if vals[r.Workload] == nil {
			order = append(order, r.Workload)
		}
		vals[r.Workload] = append(vals[r.Workload], r.PerOp)
	}
	if *bound == 0 {
		fmt.Printf("%-18s %5s %12s %12s %12s %9s\n", "workload", "runs", "median", "min", "max", "spread")
	}
	for _, w := range order {
		s := lessons.Summarize(vals[w])
		if *bound == 0 {
			fmt.Printf("%-18s %5d %12s %12s %12s %8.3f%%\n", w, s.N, lessons.Group(s.Median), lessons.Group(s.Min), lessons.Group(s.Max), 100*s.Spread)
			continue
		}
		under := "no"
		if 100*s.Spread < *bound {
			under = "yes"
		}
		ref, ok := refs[w]
		if !ok {
			log.Fatalf("no reference count for %s: add %s=COUNT to -near", w, w)
		}
		within := "no"
		if math.Abs(s.Median/ref-1) < *tol/100 {
			within = "yes"
		}
		fmt.Printf("%-18s spread under %g %%: %s; median within %g %% of %s: %s\n", w, *bound, under, *tol, lessons.Group(ref), within)
	}
}
