// Probe 973: where pure/store's CPU goes per commit at 64 writers; with
// -ram (probe 976) on a RAM-mode store (files' fold bound, no automatic
// compaction), so that no device sets the rate and the commit path is
// CPU-bound whatever the disk does. W
// goroutines commit one fresh key (kvbench.AppendWriteKey) with the
// 16-byte kvbench.Value per transaction (Begin, Put Any, Commit: what
// pure-kvbench's durable-commit cells do) on a store file in -dir; after
// half a second of warm-up it measures D and prints commits/s, the
// process's CPU per commit (getrusage), allocations and bytes per commit
// and GC cycles (runtime.MemStats), goroutine schedulings per commit (the
// runtime samples one transition in 8 into /sched/latencies: multiply
// by 8) and the time goroutines waited on mutexes. -cpuprofile,
// -memprofile (rate 512) and -trace cover the measured D only.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"workbench/experiments/lab/kvbench"
	"workbench/pure/store"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	w := flag.Int("w", 64, "writers")
	d := flag.Duration("d", 3*time.Second, "duration")
	dir := flag.String("dir", "/tmp/s16/drv", "dir")
	cp := flag.String("cpuprofile", "", "")
	tr := flag.String("trace", "", "")
	list := flag.Bool("list", false, "list metrics")
	mp := flag.String("memprofile", "", "")
	ram := flag.Bool("ram", false, "a RAM-mode store (files' fold bound, no automatic compaction)")
	flag.Parse()
	if *list {
		for _, m := range metrics.All() {
			if strings.Contains(m.Name, "sched") || strings.Contains(m.Name, "sync") {
				fmt.Println(m.Name, m.Description)
			}
		}
		return
	}
	os.MkdirAll(*dir, 0o755)
	tmp, _ := os.MkdirTemp(*dir, "s")
	defer os.RemoveAll(tmp)
	var s *store.Store
	var err error
	if *ram {
		s, err = store.OpenRAM(&store.Options{FoldEntries: store.DefaultFoldEntries, AutoCompact: -1})
	} else {
		s, err = store.Open(filepath.Join(tmp, "pure.store"), nil)
	}
	if err != nil {
		panic(err)
	}
	var stop atomic.Bool
	var n atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range *w {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			var key []byte
			<-start
			for j := 0; !stop.Load(); j++ {
				key = kvbench.AppendWriteKey(key[:0], id, j)
				tx, err := s.Begin()
				if err != nil {
					panic(err)
				}
				tx.Put(key, kvbench.Value, store.Any)
				if _, err := tx.Commit(); err != nil {
					panic(err)
				}
				n.Add(1)
			}
		}(i)
	}
	// warm-up 0.5 s
	close(start)
	time.Sleep(500 * time.Millisecond)
	if *mp != "" {
		runtime.MemProfileRate = 512
		defer func() {
			f, _ := os.Create(*mp)
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}()
	}
	if *cp != "" {
		f, _ := os.Create(*cp)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if *tr != "" {
		f, _ := os.Create(*tr)
		trace.Start(f)
		defer trace.Stop()
	}
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	sm := []metrics.Sample{{Name: "/sched/latencies:seconds"}, {Name: "/sync/mutex/wait/total:seconds"}}
	metrics.Read(sm)
	h0 := sched(sm[0])
	mw0 := sm[1].Value.Float64()
	c0, n0, t0 := cpu(), n.Load(), time.Now()
	time.Sleep(*d)
	c1, n1, el := cpu(), n.Load(), time.Since(t0)
	runtime.ReadMemStats(&ms1)
	metrics.Read(sm)
	h1 := sched(sm[0])
	mw1 := sm[1].Value.Float64()
	stop.Store(true)
	wg.Wait()
	ops := float64(n1 - n0)
	fmt.Printf("commits/s %.0f cpu/commit %.2fus allocs/commit %.3f bytes/commit %.1f gc %d\n",
		ops/el.Seconds(), float64(c1-c0)/ops/1e3, float64(ms1.Mallocs-ms0.Mallocs)/ops,
		float64(ms1.TotalAlloc-ms0.TotalAlloc)/ops, ms1.NumGC-ms0.NumGC)
	fmt.Printf("schedules/commit %.3f mutexwait %.3fs\n", float64(h1-h0)/ops, mw1-mw0)
	s.Close()
}

func sched(s metrics.Sample) uint64 {
	var t uint64
	for _, c := range s.Value.Float64Histogram().Counts {
		t += c
	}
	return t
}
