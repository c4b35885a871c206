// Command 914-ram-tpcc-wall runs Pure's side of in-process TPC-C alone
// (tpccwork.Start, then Do for each call) and prints, per round, wall
// time, user and system CPU, minor faults, GC cycles and the store's
// compactions: where the wall time of a round goes, without SQLite in
// the process.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"workbench/pure/app"
	"workbench/pure/apps/tpcc"
	"workbench/pure/apps/tpcc/tpccwork"
)

func main() {
	rounds := flag.Int("rounds", 3, "rounds")
	n := flag.Int("tx", 20000, "transactions per round")
	prof := flag.String("cpuprofile", "", "CPU profile of the rounds")
	memprof := flag.String("memprofile", "", "allocation profiles before (FILE.base) and after the rounds")
	flag.Parse()
	t0 := time.Now()
	st, rt, err := tpccwork.Start(tpcc.Full)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ls := st.Stats()
	fmt.Printf("{\"what\":\"load\",\"s\":%.2f,\"size_mb\":%d,\"keys\":%d,\"compactions\":%d}\n", time.Since(t0).Seconds(), ls.Size>>20, ls.Keys, ls.Compactions)
	if *memprof != "" {
		f, _ := os.Create(*memprof + ".base")
		pprof.Lookup("allocs").WriteTo(f, 0)
		f.Close()
	}
	if *prof != "" {
		f, _ := os.Create(*prof)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	for r := range *rounds {
		mix := tpcc.NewMix(tpcc.Full, tpccwork.LoadSeed, uint64(1000+r))
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
		var ru0, ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		c0 := st.Stats()
		w0 := time.Now()
		for _, c := range calls {
			rt.Do(c)
		}
		wall := time.Since(w0)
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		runtime.ReadMemStats(&ms1)
		c1 := st.Stats()
		fmt.Printf("{\"round\":%d,\"tx\":%d,\"tx_per_s\":%.0f,\"wall_s\":%.3f,\"user_s\":%.3f,\"sys_s\":%.3f,\"minflt\":%d,\"nvcsw\":%d,\"nivcsw\":%d,\"gcs\":%d,\"gc_pause_ms\":%.1f,\"heap_mb\":%d,\"sys_mb\":%d,\"compactions\":%d,\"size_mb\":%d,\"publications\":%d}\n",
			r, *n, float64(*n)/wall.Seconds(), wall.Seconds(),
			time.Duration(ru1.Utime.Nano()-ru0.Utime.Nano()).Seconds(), time.Duration(ru1.Stime.Nano()-ru0.Stime.Nano()).Seconds(),
			ru1.Minflt-ru0.Minflt, ru1.Nvcsw-ru0.Nvcsw, ru1.Nivcsw-ru0.Nivcsw, ms1.NumGC-ms0.NumGC,
			float64(ms1.PauseTotalNs-ms0.PauseTotalNs)/1e6, ms1.HeapAlloc>>20, ms1.Sys>>20, c1.Compactions-c0.Compactions, c1.Size>>20, c1.Publications-c0.Publications)
	}
	if *memprof != "" {
		runtime.GC()
		f, _ := os.Create(*memprof)
		pprof.Lookup("allocs").WriteTo(f, 0)
		f.Close()
	}
	rt.Close()
	st.Close()
}
