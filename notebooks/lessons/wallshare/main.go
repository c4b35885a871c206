// Command wallshare sorts the samples of a wall-clock profile of pure-serve
// (its /debug/fgprof) by what each goroutine was doing, and sets the CPU
// profile of the same window beside it (lesson 03):
//
//	go run ./notebooks/lessons/wallshare -cpu CPU.pb.gz WALL.pb.gz
//
// Each wall-clock sample is one goroutine's stack at one moment. It goes to
// the first of these that its stack matches, leaf first:
//
//   - in fdatasync: the stack holds unix.Fdatasync (the disk's time);
//   - committing: inside store.(*Tx).Commit: writing, or parked
//     until the group's leader has written and synced it;
//   - waiting for the next request: a connection parked in the network
//     poller (netpollblock) under serve.(*conn);
//   - serving, on a CPU or waiting for one: any other stack in serve or
//     store that is not parked;
//   - everything else: idle goroutines (listeners, the date clock, the
//     store's syncer, signal handling, the profilers' own) and, in the CPU
//     profile, the runtime's work outside goroutines (the scheduler, the
//     network poller, the garbage collector).
//
// With -cpu, the CPU profile's samples are sorted the same way and shown
// beside: a bucket's wall-clock time less its CPU time is time off CPU.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// classes are the buckets, in the order a sample is tried against them.
var classes = []struct {
	name  string
	match func(fns []string) bool
}{
	{"in fdatasync (the disk)", func(f []string) bool { return has(f, "golang.org/x/sys/unix.Fdatasync") }},
	{"committing: writing, awaiting the sync", func(f []string) bool { return has(f, "workbench/pure/store.(*Tx).Commit") }},
	{"waiting for the next request (poller)", func(f []string) bool {
		return has(f, "runtime.netpollblock") && hasPrefix(f, "workbench/pure/serve.(*conn)")
	}},
	{"serving: on a CPU or runnable", func(f []string) bool {
		return (hasPrefix(f, "workbench/pure/serve.") || hasPrefix(f, "workbench/pure/store.")) && f[0] != "runtime.gopark"
	}},
	{"other: idle goroutines, the runtime", func([]string) bool { return true }},
}

func main() {
	log.SetFlags(0)
	cpuFile := flag.String("cpu", "", "the CPU profile of the same window (`FILE`, optional)")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: wallshare [-cpu CPU.pb.gz] WALL.pb.gz (a wall-clock profile from pure-serve's /debug/fgprof)")
	}
	wall, err := read(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	ti := index(wall, "time")
	if ti < 0 {
		log.Fatalf("%s: no sample type \"time\": is it a wall-clock profile from /debug/fgprof?", flag.Arg(0))
	}
	cpu := (*profile.Profile)(nil)
	if *cpuFile != "" {
		if cpu, err = read(*cpuFile); err != nil {
			log.Fatal(err)
		}
		if index(cpu, "cpu") < 0 {
			log.Fatalf("%s: no sample type \"cpu\": is it a CPU profile from /debug/pprof/profile?", *cpuFile)
		}
	}
	wsum, wtotal := sortSamples(wall, ti)
	if wtotal == 0 {
		log.Fatalf("%s: no samples", flag.Arg(0))
	}
	if cpu == nil {
		fmt.Printf("%-40s %16s\n", "", "wall-clock")
		for i, c := range classes {
			fmt.Printf("  %-38s %7.2f s %5.1f %%\n", c.name, secs(wsum[i]), 100*float64(wsum[i])/float64(wtotal))
		}
		fmt.Printf("  %-38s %7.2f s\n", "all (goroutines x seconds)", secs(wtotal))
		return
	}
	csum, ctotal := sortSamples(cpu, index(cpu, "cpu"))
	fmt.Printf("%-40s %16s  %7s\n", "", "wall-clock", "CPU")
	for i, c := range classes {
		fmt.Printf("  %-38s %7.2f s %5.1f %%  %5.2f s\n", c.name, secs(wsum[i]), 100*float64(wsum[i])/float64(wtotal), secs(csum[i]))
	}
	fmt.Printf("  %-38s %7.2f s          %5.2f s\n", "all (goroutines x seconds; CPU)", secs(wtotal), secs(ctotal))
	d := time.Duration(cpu.DurationNanos)
	fmt.Printf("CPU profile over %.0f s: %.2f cores busy on average\n", d.Seconds(), secs(ctotal)/d.Seconds())
}

// sortSamples sums the value vi of p's samples into the classes, each
// sample into the first class its stack matches, and returns the sums and
// their total.
func sortSamples(p *profile.Profile, vi int) ([]int64, int64) {
	sums := make([]int64, len(classes))
	var total int64
	for _, s := range p.Sample {
		fns := funcs(s)
		for i, c := range classes {
			if c.match(fns) {
				sums[i] += s.Value[vi]
				break
			}
		}
		total += s.Value[vi]
	}
	return sums, total
}

func read(name string) (*profile.Profile, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// index returns the position of the sample type typ in p, or -1.
func index(p *profile.Profile, typ string) int {
	for i, st := range p.SampleType {
		if st.Type == typ {
			return i
		}
	}
	return -1
}

// funcs returns the function names of s's stack, leaf first.
func funcs(s *profile.Sample) []string {
	var fns []string
	for _, loc := range s.Location {
		for _, l := range loc.Line {
			if l.Function != nil {
				fns = append(fns, l.Function.Name)
			}
		}
	}
	if len(fns) == 0 {
		fns = []string{""}
	}
	return fns
}

func has(fns []string, name string) bool {
	for _, f := range fns {
		if f == name {
			return true
		}
	}
	return false
}

func hasPrefix(fns []string, prefix string) bool {
	for _, f := range fns {
		if strings.HasPrefix(f, prefix) {
			return true
		}
	}
	return false
}

func secs(ns int64) float64 { return float64(ns) / 1e9 }
