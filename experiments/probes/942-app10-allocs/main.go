// Command 942-app10-allocs runs Pure's side of in-process TPC-C alone
// (tpccwork.Start, a ramp-up of -warmup transactions, then Do for each
// call, as probe 914) and prints, per round, the heap allocations per
// transaction of Do (count and bytes, from runtime.MemStats), the
// collections inside the round, and the process's CPU time (user+system,
// getrusage) and wall time per transaction; and after loading the live
// heap's objects, which the collector marks at every cycle. Its times
// need the measure lock (run.sh takes it).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"

	"workbench/pure/app"
	"workbench/pure/apps/tpcc"
	"workbench/pure/apps/tpcc/tpccwork"
)

func main() {
	rounds := flag.Int("rounds", 2, "rounds")
	n := flag.Int("tx", 20000, "transactions per round")
	small := flag.Bool("small", false, "tpcc.Small instead of tpcc.Full")
	warmup := flag.Int("warmup", 20000, "transactions before round 0, not measured (pure-appbench --warmup-tx)")
	flag.Parse()
	sc := tpcc.Full
	if *small {
		sc = tpcc.Small
	}
	st, rt, err := tpccwork.Start(sc)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	runtime.GC()
	var ml runtime.MemStats
	runtime.ReadMemStats(&ml)
	fmt.Printf("{\"what\":\"loaded\",\"heap_objects\":%d,\"heap_alloc_mb\":%d}\n", ml.HeapObjects, ml.HeapAlloc>>20)
	mixOf := func(seed uint64, n int, now int64) []*app.Call {
		mix := tpcc.NewMix(sc, tpccwork.LoadSeed, seed)
		calls := make([]*app.Call, n)
		for i := range calls {
			x := mix.Next()
			x.Now = now + int64(i)
			calls[i] = &app.Call{}
			calls[i].Kind, calls[i].Name, calls[i].Query, calls[i].Body = x.Call()
		}
		return calls
	}
	for _, c := range mixOf(999, *warmup, 0) {
		rt.Do(c)
	}
	for r := range *rounds {
		calls := mixOf(uint64(1000+r), *n, int64(r+1)*100_000_000) // pure-appbench's rounds
		runtime.GC()
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		c0 := st.Stats()
		cpu0, w0 := processCPU(), time.Now()
		for _, c := range calls {
			rt.Do(c)
		}
		wall, cpu := time.Since(w0), processCPU()-cpu0
		runtime.ReadMemStats(&ms1)
		c1 := st.Stats()
		fmt.Printf("{\"round\":%d,\"tx\":%d,\"allocs_per_tx\":%.1f,\"bytes_per_tx\":%.0f,\"gcs\":%d,\"compactions\":%d,\"cpu_us_per_tx\":%.2f,\"wall_us_per_tx\":%.2f}\n",
			r, *n, float64(ms1.Mallocs-ms0.Mallocs)/float64(*n), float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(*n),
			ms1.NumGC-ms0.NumGC, c1.Compactions-c0.Compactions,
			float64(cpu.Nanoseconds())/1e3/float64(*n), float64(wall.Nanoseconds())/1e3/float64(*n))
	}
	rt.Close()
	st.Close()
}

// processCPU is this process's user+system CPU time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
