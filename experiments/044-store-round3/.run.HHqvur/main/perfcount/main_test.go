package perfcount

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sync"
	"testing"
)

// childEnv selects a helper mode when the test binary is started again as
// a child by a test.
const childEnv = "PERFCOUNT_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "threads":
		// Touch pages only in threads started after exec: with inherit the
		// parent's command-scope count must include them.
		var wg sync.WaitGroup
		for range childThreads {
			wg.Add(1)
			go func() {
				defer wg.Done()
				runtime.LockOSThread()
				touchPages(childPages)
			}()
		}
		wg.Wait()
		os.Exit(0)
	case "region":
		// Count the same page touching in a region, and print it, so the
		// parent can compare region scope with command scope.
		r, err := NewRegion(BackendPerf, MustParseEvents("page-faults"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := r.Measure(func() { touchPages(childPages) }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		json.NewEncoder(os.Stdout).Encode(r.Counts()[0].Value)
		os.Exit(0)
	case "callgrind":
		r, err := NewRegion(BackendCallgrind, MustParseEvents("instructions"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var vals []uint64
		for range 2 {
			if err := r.Measure(sumLoop); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			vals = append(vals, r.Counts()[0].Value)
		}
		json.NewEncoder(os.Stdout).Encode(vals)
		os.Exit(0)
	default:
		fmt.Fprintln(os.Stderr, "unknown child mode")
		os.Exit(2)
	}
}

const (
	childThreads = 4
	childPages   = 2000
)

var sink uint64

// sumLoop is deterministic pure computation: no allocation, no maps.
func sumLoop() {
	var s uint64
	for i := uint64(0); i < 100_000; i++ {
		s += i * i
	}
	sink = s
}
