// Command table prints the runs of a `pure-count run --json` file: per
// workload and event, the median, the extremes, the spread, the first run
// and every run's distance from the median, in the order they ran.
//
//	go run ./notebooks/lessons/table FILE.jsonl
package main

import (
	"fmt"
	"log"
	"os"
	"strings"

	"workbench/notebooks/lessons"
)

func main() {
	log.SetFlags(0)
	if len(os.Args) != 2 {
		log.Fatal("usage: table FILE.jsonl (written by pure-count run --json)")
	}
	runs, err := lessons.ReadRuns(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	type key struct{ w, e, src string }
	var order []key
	vals := map[key][]float64{}
	for _, r := range runs {
		k := key{r.Workload, r.Event, r.Source}
		if vals[k] == nil {
			order = append(order, k)
		}
		vals[k] = append(vals[k], r.PerOp)
	}
	for _, k := range order {
		v := vals[k]
		s := lessons.Summarize(v)
		unit := ""
		if k.e == "task-clock" {
			unit = " ns"
		}
		fmt.Printf("%s: %s per op (%s), %d runs\n", k.w, k.e, k.src, s.N)
		fmt.Printf("  median  %12s%s\n", lessons.Group(s.Median), unit)
		fmt.Printf("  min     %12s%s  (%s from the median)\n", lessons.Group(s.Min), unit, lessons.Pct(s.Min/s.Median-1))
		fmt.Printf("  max     %12s%s  (%s from the median)\n", lessons.Group(s.Max), unit, lessons.Pct(s.Max/s.Median-1))
		fmt.Printf("  first   %12s%s  (%s from the median)\n", lessons.Group(v[0]), unit, lessons.Pct(v[0]/s.Median-1))
		fmt.Printf("  spread  %.2f %%  ((max - min) / median)\n", 100*s.Spread)
		fmt.Println("  each run's distance from the median, in %, in the order they ran:")
		for i := 0; i < len(v); i += 10 {
			var row []string
			for _, x := range v[i:min(i+10, len(v))] {
				row = append(row, fmt.Sprintf("%+6.2f", 100*(x/s.Median-1)))
			}
			fmt.Println("   " + strings.Join(row, " "))
		}
	}
}
