// Command preempt shows what preemption does to a count under callgrind:
// it counts a region that sorts 10,000 seeded ints five times, r times,
// each in a fresh process under valgrind, without pure-count's quiet start.
//
//	go run ./notebooks/lessons/preempt [-r N]
//
// The disturbance is the runtime's monitor (sysmon), which asks a goroutine
// that has run for 10 ms of wall time to yield; under callgrind the region
// runs for about a second, so it is asked many times, at moments that depend
// on the wall clock, and each time the scheduler's code runs inside the
// region. pure-count's quiet start (cmd/pure-count/quiet.go) lets sysmon fall
// asleep before the region, and its counts of the same kind of work are
// identical from run to run.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"workbench/perfcount"
)

func main() {
	log.SetFlags(0)
	repeat := flag.Int("r", 5, "fresh processes")
	child := flag.Bool("child", false, "internal: count once (under valgrind)")
	flag.Parse()
	if *child {
		countOnce()
		return
	}
	self, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	vg, err := perfcount.ValgrindPath()
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "preempt-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var vals []uint64
	for i := 0; i < *repeat; i++ {
		out := filepath.Join(dir, "callgrind."+strconv.Itoa(i))
		args := append(perfcount.CallgrindArgs(out), self, "-child")
		cmd := exec.Command(vg, args...)
		cmd.Env = append(os.Environ(), perfcount.CallgrindEnv(out)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			log.Fatalf("valgrind: %v\n%s", err, stderr.String())
		}
		v, err := strconv.ParseUint(strings.TrimSpace(stdout.String()), 10, 64)
		if err != nil {
			log.Fatalf("child printed %q: %v", stdout.String(), err)
		}
		vals = append(vals, v)
	}
	s := slices.Clone(vals)
	slices.Sort(s)
	fmt.Printf("sort 10,000 ints x5, no quiet start, %d runs (instructions):\n", len(vals))
	for _, v := range vals {
		fmt.Printf("  %12s  %+.3f %% from the smallest\n", group(v), 100*(float64(v)/float64(s[0])-1))
	}
}

func countOnce() {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([][]int, 5)
	for i := range data {
		data[i] = make([]int, 10000)
		for j := range data[i] {
			data[i][j] = rng.IntN(1 << 40)
		}
	}
	r, err := perfcount.NewRegion(perfcount.BackendCallgrind, perfcount.MustParseEvents("instructions"))
	if err != nil {
		log.Fatal(err)
	}
	if err := r.Measure(func() {
		for _, d := range data {
			slices.Sort(d)
		}
	}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Counts()[0].Value)
}

func group(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
