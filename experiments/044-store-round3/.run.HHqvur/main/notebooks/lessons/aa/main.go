// Command aa compares two sets of runs of the same code (an A/A run): the
// median of each, and how far apart the medians are.
//
//	go run ./notebooks/lessons/aa A1.jsonl A2.jsonl
package main

import (
	"fmt"
	"log"
	"os"

	"workbench/notebooks/lessons"
)

func main() {
	log.SetFlags(0)
	if len(os.Args) != 3 {
		log.Fatal("usage: aa A1.jsonl A2.jsonl (each written by pure-count run --json)")
	}
	var med [2]float64
	for i, f := range os.Args[1:] {
		runs, err := lessons.ReadRuns(f)
		if err != nil {
			log.Fatal(err)
		}
		if len(runs) == 0 {
			log.Fatalf("%s: no runs", f)
		}
		var v []float64
		for _, r := range runs {
			v = append(v, r.PerOp)
		}
		s := lessons.Summarize(v)
		med[i] = s.Median
		unit := ""
		if runs[0].Event == "task-clock" {
			unit = " ns"
		}
		fmt.Printf("A%d: %2d runs of %s, %s per op: median %s%s, spread %.2f %%\n",
			i+1, s.N, runs[0].Workload, runs[0].Event, lessons.Group(s.Median), unit, 100*s.Spread)
	}
	fmt.Printf("A2 against A1: %s (the same code on both sides)\n", lessons.Pct(med[1]/med[0]-1))
}
