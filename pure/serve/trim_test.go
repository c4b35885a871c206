package serve

import (
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestServer_TrimAfterOutsizedBody: a PUT whose body is over the largest
// pooled read buffer makes the server return its memory once (a trim);
// PUTs and GETs whose buffers are pooled never do.
func TestServer_TrimAfterOutsizedBody(t *testing.T) {
	s := newTestServer(t, Config{})
	c := dial(t, listen(t, s))
	for i := range 20 {
		body := strings.Repeat("s", 100<<10) // a 128 KiB pooled buffer
		if rp := c.put("/docs/small", body); rp.status != 200 {
			t.Fatalf("PUT %d: %d %s", i, rp.status, rp.body)
		}
		if rp := c.get("/docs/small"); rp.status != 200 || len(rp.body) != len(body) {
			t.Fatalf("GET %d: %d, %d bytes", i, rp.status, len(rp.body))
		}
	}
	if n := s.trim.trims.Load(); n != 0 {
		t.Fatalf("%d trims after pooled-size bodies, want 0", n)
	}
	if rp := c.put("/docs/big", strings.Repeat("b", 3<<20)); rp.status != 200 {
		t.Fatalf("PUT of 3 MiB: %d %s", rp.status, rp.body)
	}
	// The trim runs on its own goroutine: wait for it (the bound is only
	// there so that a missing trim fails rather than hangs).
	for end := time.Now().Add(20 * time.Second); s.trim.trims.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("no trim after a 3 MiB body's buffer was dropped")
		}
	}
	if rp := c.get("/docs/big"); rp.status != 200 || len(rp.body) != 3<<20 {
		t.Fatalf("GET big after the trim: %d, %d bytes", rp.status, len(rp.body))
	}
}

// TestHoldPercent: the trim's GOGC keeps the heap goal at most half of the
// runtime's threshold for metadata huge pages, and never lowers GOGC.
func TestHoldPercent(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		old  int
		want int
	}{
		{0, 50, holdScavenger},
		{1 << 20, 50, holdScavenger}, // goal 129 MiB at 12,800
		{1 << 20, -1, holdScavenger}, // GOGC=off: the trim's collections still run
		{10 << 20, 50, 5000},         // 512 MiB / 10 MiB = 51 (floored): goal 510 MiB
		{600 << 20, 50, 50},          // past the threshold's half: GOGC as it was
		{600 << 20, 100, 100},
	} {
		got := holdPercent(tc.live, tc.old)
		if got != tc.want {
			t.Errorf("holdPercent(%d MiB live, GOGC %d) = %d, want %d", tc.live>>20, tc.old, got, tc.want)
		}
		if goal := max(tc.live*uint64(100+got)/100, 4<<20*uint64(got)/100); got > tc.old && goal > metadataHugePagesGoal/2 {
			t.Errorf("holdPercent(%d MiB live) = %d: heap goal %d MiB, want at most %d MiB", tc.live>>20, got, goal>>20, metadataHugePagesGoal>>21)
		}
	}
}

// TestTrim_NoMetadataHugePages: a trim does not make the runtime mark its
// heap metadata eligible for transparent huge pages (a mapping with the
// "hg" VmFlag in /proc/self/smaps), which a goal over 1 GiB does for good
// and khugepaged then fills 2 MiB at a time (probe 1019). Linux only; it
// fails with the trim's old hold, GOGC 1<<20.
func TestTrim_NoMetadataHugePages(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("VmFlags are Linux's")
	}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"); err != nil {
		t.Skipf("no transparent huge pages here (%v): the runtime never marks a mapping", err)
	}
	hg := func() []string {
		b, err := os.ReadFile("/proc/self/smaps")
		if err != nil {
			t.Fatal(err)
		}
		var marked []string
		var mapping string
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) > 0 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
				mapping = l
			}
			if strings.HasPrefix(l, "VmFlags:") && slices.Contains(strings.Fields(l), "hg") {
				marked = append(marked, mapping)
			}
		}
		return marked
	}
	if m := hg(); len(m) > 0 {
		t.Skipf("the test process's heap metadata is already marked (another test's heap passed 1 GiB?): %q", m)
	}
	trim()
	if m := hg(); len(m) > 0 {
		t.Errorf("after a trim the runtime marked %q for huge pages: the trim's GOGC took the heap goal over 1 GiB", m)
	}
}

// TestHeapAndGOGC: the GOGC a trim starts from is the one in force, -1
// when collection is off, so that the trim restores nothing else.
func TestHeapAndGOGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	runtime.GC() // so that a collection has marked a live heap
	for _, p := range []int{50, 300, -1} {
		debug.SetGCPercent(p)
		if live, gogc := heapAndGOGC(); gogc != p || live == 0 {
			t.Errorf("GOGC %d: heapAndGOGC() = %d bytes live, GOGC %d; want a live heap and %d", p, live, gogc, p)
		}
	}
}
