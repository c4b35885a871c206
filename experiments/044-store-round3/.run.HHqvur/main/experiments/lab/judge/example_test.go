package judge_test

import (
	"fmt"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/judge"
	"workbench/perfcount"
)

func ExampleJudge() {
	// Six ABBA pairs of one workload: throughput and callgrind instruction
	// counts. The after run of pair 3 lost 13 % of its CPU.
	throughput := [][2]float64{{44500, 44200}, {44610, 44400}, {44480, 38900}, {44550, 44300}, {44400, 44150}, {44700, 44350}}
	share := [][2]float64{{0.90, 0.90}, {0.91, 0.90}, {0.90, 0.78}, {0.90, 0.91}, {0.89, 0.90}, {0.90, 0.90}}
	instr := [][2]float64{{8.695e6, 8.776e6}, {8.694e6, 8.777e6}, {8.696e6, 8.775e6}, {8.695e6, 8.776e6}, {8.697e6, 8.778e6}, {8.695e6, 8.776e6}}
	var runs []expdir.Run
	for i := range 6 {
		for s, side := range []string{judge.SideBefore, judge.SideAfter} {
			runs = append(runs, expdir.Run{
				Workload: "field", Side: side, Pair: i + 1, Position: 1 + (s+i)%2, Ops: 1,
				Metrics: expdir.Metrics{Throughput: throughput[i][s], CPUShare: share[i][s], CPUPerOp: 4.26e-5},
				Counts:  []expdir.Count{{Event: "instructions:u", Value: instr[i][s], PerOp: instr[i][s], Source: perfcount.SourceCallgrind}},
			})
		}
	}
	rep := judge.Judge(runs, judge.DefaultCriteria, nil, judge.Options{})
	w := rep.Workloads[0]
	fmt.Println(rep.Verdict, "—", rep.Reason)
	fmt.Println(w.Verdict, "—", w.Reason)
	for _, p := range w.Pairs {
		fmt.Printf("pair %d (%s first): %s\n", p.Pair, p.First, strings.TrimSpace(string(p.Status)+" "+p.Note))
	}
	// Output:
	// same — of 1 workload, 1 same (field)
	// same — instructions:u 0.93 % higher (95 % CI [+0.91 %, +0.95 %]), a real change within the 1 % criterion (noise 0.035 %); throughput 0.56 % lower (93.8 % CI [−0.78 %, −0.47 %] over pairs 1, 2 and 4–6; 3 disturbed), within the 3 % criterion
	// pair 1 (before first): clean
	// pair 2 (after first): clean
	// pair 3 (before first): disturbed after run: cpu_share 13 % below its side's median (limit 3.0 %); cpu_share departures differ by 13 % (limit 3.0 %)
	// pair 4 (after first): clean
	// pair 5 (before first): clean
	// pair 6 (after first): clean
}
