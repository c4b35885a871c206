// Command tprec is probe 1020's check: how long a Go timer of 20, 100 and
// 300 µs takes to fire when nothing else in the process runs (200 each;
// p50, p90, max). Usage: go run ./experiments/probes/1020-go-timer-idle/tprec
package main

import (
	"fmt"
	"sort"
	"time"
)

func main() {
	for _, d := range []time.Duration{20 * time.Microsecond, 100 * time.Microsecond, 300 * time.Microsecond} {
		var got []time.Duration
		t := time.NewTimer(time.Hour)
		for i := 0; i < 200; i++ {
			t.Reset(d)
			s := time.Now()
			<-t.C
			got = append(got, time.Since(s))
		}
		sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
		fmt.Println(d, "p50", got[100], "p90", got[180], "max", got[199])
	}
}
