// Command 934-app9-allocs runs Pure's side of in-process TPC-C alone
// (tpccwork.Start, then Do for each call, as probe 914) and prints, per
// round, the heap allocations per transaction of Do (count and bytes,
// from runtime.MemStats), and after loading the live heap's objects,
// which the collector marks at every cycle. Counts, not timings: it
// needs no measure lock.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"

	"workbench/pure/app"
	"workbench/pure/apps/tpcc"
	"workbench/pure/apps/tpcc/tpccwork"
)

func main() {
	rounds := flag.Int("rounds", 2, "rounds")
	n := flag.Int("tx", 20000, "transactions per round")
	small := flag.Bool("small", false, "tpcc.Small instead of tpcc.Full")
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
	for r := range *rounds {
		mix := tpcc.NewMix(sc, tpccwork.LoadSeed, uint64(1000+r))
		calls := make([]*app.Call, *n)
		for i := range calls {
			x := mix.Next()
			x.Now = int64(r+1)*100_000_000 + int64(i)
			calls[i] = &app.Call{}
			calls[i].Kind, calls[i].Name, calls[i].Query, calls[i].Body = x.Call()
		}
		runtime.GC()
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		c0 := st.Stats()
		for _, c := range calls {
			rt.Do(c)
		}
		runtime.ReadMemStats(&ms1)
		c1 := st.Stats()
		fmt.Printf("{\"round\":%d,\"tx\":%d,\"allocs_per_tx\":%.1f,\"bytes_per_tx\":%.0f,\"gcs\":%d,\"compactions\":%d}\n",
			r, *n, float64(ms1.Mallocs-ms0.Mallocs)/float64(*n), float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(*n),
			ms1.NumGC-ms0.NumGC, c1.Compactions-c0.Compactions)
	}
	rt.Close()
	st.Close()
}
