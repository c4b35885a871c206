// Command storeload runs concurrent writers against a durable store for a
// while and writes two profiles of that time: the Go CPU profile (where the
// process spent CPU) and an fgprof profile (where its goroutines spent wall
// time, on CPU or waiting).
//
//	go run ./notebooks/lessons/storeload [-writers N] [-duration D] -cpu FILE -wall FILE [-dir DIR]
//
// Each writer commits one transaction after another, each putting one
// 64-byte value under its own keys; a commit returns only after the data is
// synced, and concurrent commits share one write and one fdatasync.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/felixge/fgprof"

	"workbench/pure/store"
)

func main() {
	log.SetFlags(0)
	writers := flag.Int("writers", 8, "concurrent writers")
	duration := flag.Duration("duration", 3*time.Second, "how long to write")
	cpuFile := flag.String("cpu", "", "write the CPU profile to `FILE`")
	wallFile := flag.String("wall", "", "write the fgprof wall-clock profile to `FILE`")
	dir := flag.String("dir", "", "directory for the store file (default: a temporary one, removed)")
	flag.Parse()
	if *cpuFile == "" || *wallFile == "" {
		log.Fatal("storeload: give -cpu FILE and -wall FILE")
	}
	d := *dir
	if d == "" {
		t, err := os.MkdirTemp("", "storeload-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(t)
		d = t
	}
	s, err := store.Open(filepath.Join(d, "load.pure"), nil)
	if err != nil {
		log.Fatal(err)
	}
	cf, err := os.Create(*cpuFile)
	if err != nil {
		log.Fatal(err)
	}
	wf, err := os.Create(*wallFile)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(cf); err != nil {
		log.Fatal(err)
	}
	stopWall := fgprof.Start(wf, fgprof.FormatPprof)

	var commits atomic.Int64
	var wg sync.WaitGroup
	deadline := time.Now().Add(*duration)
	val := make([]byte, 64)
	for w := 0; w < *writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; time.Now().Before(deadline); n++ {
				tx, err := s.Begin()
				if err != nil {
					log.Fatal(err)
				}
				if err := tx.Put([]byte(fmt.Sprintf("w%02d-%06d", w, n%1000)), val, store.Any); err != nil {
					log.Fatal(err)
				}
				if _, err := tx.Commit(); err != nil {
					log.Fatal(err)
				}
				commits.Add(1)
			}
		}()
	}
	wg.Wait()
	pprof.StopCPUProfile()
	if err := stopWall(); err != nil {
		log.Fatal(err)
	}
	for _, f := range []*os.File{cf, wf} {
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		log.Fatal(err)
	}
	n := commits.Load()
	fmt.Printf("%d writers, %v: %d commits, %.0f commits/s\n", *writers, *duration, n, float64(n)/duration.Seconds())
}
