// Probe 1002: does this machine's disk finish more syncs per second when
// two or four fdatasync calls are in flight at once than when they follow
// one another? The store syncs one group at a time (a head is written only
// after the previous group's sync returned); overlapping syncs would need a
// different recovery rule, and would pay only if the device overlaps them.
//
// Each stream appends records of -bytes bytes over preallocated, synced
// zeros (as the store writes over its zeros ahead) and calls fdatasync
// after each; -streams goroutines share one file, each in its own region.
// One JSON line per run: streams, syncs, seconds, syncs/s, and the syncs'
// latency p50/p99.
//
// With -shared the streams take turns appending to one region, so that the
// record a sync carries shares its page with the one before it, as the
// store's consecutive groups do (a group is about 2 KiB at 64 writers).
//
// Usage: go run ./experiments/probes/1002-device-overlapping-syncs -dir DIR -streams 1,2,4 -rounds 5 -duration 3s [-shared] > runs.jsonl
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	dir := flag.String("dir", os.TempDir(), "directory on the disk under study")
	streamsFlag := flag.String("streams", "1,2,4", "comma-separated numbers of concurrent sync streams, rotated each round")
	rounds := flag.Int("rounds", 5, "rounds")
	duration := flag.Duration("duration", 3*time.Second, "each run's length")
	size := flag.Int("bytes", 2048, "bytes written before each sync")
	shared := flag.Bool("shared", false, "the streams append to one region in turns (each record after the last one any stream wrote, so consecutive syncs share pages, as a store's consecutive groups do), instead of each to its own region")
	flag.Parse()
	var streams []int
	for _, s := range strings.Split(*streamsFlag, ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "-streams: %q is not a positive number\n", s)
			os.Exit(2)
		}
		streams = append(streams, n)
	}
	enc := json.NewEncoder(os.Stdout)
	for r := range *rounds {
		for i := range streams {
			n := streams[(i+r)%len(streams)]
			res, err := run(*dir, n, *size, *duration, *shared)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			res["round"] = r
			enc.Encode(res)
		}
	}
}

const region = 64 << 20 // each stream's share of the preallocated file

func run(dir string, streams, size int, d time.Duration, shared bool) (map[string]any, error) {
	path := filepath.Join(dir, "probe1002.dat")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	defer os.Remove(path)
	defer f.Close()
	zeros := make([]byte, 1<<20)
	for off := int64(0); off < int64(streams)*region; off += int64(len(zeros)) {
		if _, err := f.WriteAt(zeros, off); err != nil {
			return nil, err
		}
	}
	if err := f.Sync(); err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	lats := make([][]time.Duration, streams)
	var wg sync.WaitGroup
	var firstErr error
	var mu sync.Mutex
	var next int64 // shared: where the next record goes, claimed under mu
	start := time.Now()
	for s := range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := make([]byte, size)
			for i := range rec {
				rec[i] = byte(s + i)
			}
			off := int64(s) * region
			for time.Since(start) < d && off+int64(size) <= int64(s+1)*region {
				if shared {
					mu.Lock()
					off, next = next, next+int64(size)
					mu.Unlock()
					if off+int64(size) > int64(streams)*region {
						return
					}
				}
				if _, err := unix.Pwrite(fd, rec, off); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				t0 := time.Now()
				if err := unix.Fdatasync(fd); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				lats[s] = append(lats[s], time.Since(t0))
				if !shared {
					off += int64(size)
				}
			}
		}()
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	if firstErr != nil {
		return nil, firstErr
	}
	all := slices.Concat(lats...)
	slices.Sort(all)
	pct := func(p float64) float64 { return float64(all[int(p*float64(len(all)-1))].Microseconds()) }
	return map[string]any{"streams": streams, "shared": shared, "bytes": size, "syncs": len(all), "seconds": secs,
		"syncs_per_s": float64(len(all)) / secs, "p50_us": pct(0.5), "p99_us": pct(0.99)}, nil
}
