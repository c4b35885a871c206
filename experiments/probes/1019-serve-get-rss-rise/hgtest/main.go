// Command hgtest is probe 1019's check: after debug.SetGCPercent(P) and
// debug.FreeOSMemory(), how many of the process's mappings carry the "hg"
// VmFlag (madvise(MADV_HUGEPAGE)). Usage: go run ./experiments/probes/1019-serve-get-rss-rise/hgtest P
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

func hg() int {
	b, _ := os.ReadFile("/proc/self/smaps")
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmFlags:") && strings.Contains(l+" ", " hg ") {
			n++
		}
	}
	return n
}

func main() {
	p, _ := strconv.Atoi(os.Args[1])
	fmt.Println("before", hg())
	old := debug.SetGCPercent(p)
	debug.FreeOSMemory()
	debug.SetGCPercent(old)
	fmt.Println("after GOGC", p, hg())
}
