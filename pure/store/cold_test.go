package store

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// mappedRSS returns the resident bytes of this process's mappings of path,
// from /proc/self/smaps (Linux).
func mappedRSS(t *testing.T, path string) (uint64, bool) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var rss uint64
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = len(fields) >= 6 && fields[5] == path
			continue
		}
		if in && len(fields) == 3 && fields[0] == "Rss:" {
			kb, err := strconv.ParseUint(fields[1], 10, 64)
			if err != nil {
				t.Fatalf("smaps: %q: %v", line, err)
			}
			rss += kb << 10
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rss, true
}

// openForRSS opens a durable store in a temporary file, without automatic
// compaction, closed when t ends; it skips t where the mapping's RSS
// cannot be read.
func openForRSS(t *testing.T) (*Store, string) {
	t.Helper()
	path := tempPath(t)
	s := mustOpen(t, path, &Options{AutoCompact: -1})
	t.Cleanup(func() { s.Close() })
	if _, ok := mappedRSS(t, path); !ok {
		t.Skip("no /proc/self/smaps here (not Linux): the mapping's RSS cannot be read")
	}
	return s, path
}

// filler is a value of size bytes (a multiple of 8) naming commit i.
func filler(i, size int) string {
	return strings.Repeat(fmt.Sprintf("%07d|", i), size/8)
}

// TestReleaseCold_BoundsMappedRSS overwrites 32 keys of 16 KiB, reading
// each back through the mapping, until the file has grown far beyond the
// release window: without the writer's release every page written and read
// stays resident (RSS about the file's size); with it the mapping's RSS
// stays within the live pages plus the window. Every value still reads
// back as last written.
func TestReleaseCold_BoundsMappedRSS(t *testing.T) {
	s, path := openForRSS(t)
	const keys, size = 32, 16 << 10
	last := make(map[string]string, keys)
	for i := 0; s.Stats().Size < 24<<20; i++ {
		k := key(i % keys)
		v := filler(i, size)
		put(t, s, k, v)
		if got, _, _ := get(t, s, k); got != v { // read it through the mapping
			t.Fatalf("commit %d: %s reads back %d bytes, want the %d just written", i, k, len(got), len(v))
		}
		last[k] = v
	}
	st := s.Stats()
	rss, _ := mappedRSS(t, path)
	live := uint64(keys * size)
	bound := live + 3*coldWindow + 1<<20
	t.Logf("file %d MiB, mapping RSS %d KiB, released %d MiB, bound %d KiB", st.Size>>20, rss>>10, st.ReleasedPages>>20, bound>>10)
	if st.ReleasedPages == 0 {
		t.Errorf("Stats().ReleasedPages is 0 after the file grew to %d bytes: nothing was given back", st.Size)
	}
	if rss > bound {
		t.Errorf("the mapping holds %d KiB resident after %d MiB written; want at most %d KiB (live %d KiB + 3 x the %d KiB window + 1 MiB)",
			rss>>10, st.Size>>20, bound>>10, live>>10, coldWindow>>10)
	}
	for k, v := range last {
		if got, _, ok := get(t, s, k); !ok || got != v {
			t.Fatalf("after the release %s reads %d bytes (found %v), want its last %d", k, len(got), ok, len(v))
		}
	}
}

// TestReleaseCold_RAMKeepsItsImage checks that RAM mode, whose image is the
// data itself, never releases pages.
func TestReleaseCold_RAMKeepsItsImage(t *testing.T) {
	s, err := OpenRAM(&Options{AutoCompact: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v := strings.Repeat("x", 8<<10)
	for i := 0; s.Stats().Size < 3*coldWindow+1<<20; i++ {
		put(t, s, key(i%16), v)
	}
	if r := s.Stats().ReleasedPages; r != 0 {
		t.Fatalf("RAM mode released %d bytes of its image", r)
	}
	for i := range 16 {
		if got, _, ok := get(t, s, key(i)); !ok || got != v {
			t.Fatalf("%s reads %d bytes, want %d", key(i), len(got), len(v))
		}
	}
}

// TestReleaseCold_ReadBackLater is TestReleaseCold_BoundsMappedRSS with each
// key read just before it is overwritten, a round of all keys after it was
// written (as a PUT with If-Match or a fold finds the live version): by
// then its pages were released and the read faults them back. The writer's
// sweeps must release those too, so the mapping's RSS stays within the
// live pages, the window and a sweep's growth, not the data written.
func TestReleaseCold_ReadBackLater(t *testing.T) {
	s, path := openForRSS(t)
	const keys, size = 64, 32 << 10
	last := make(map[string]string, keys)
	for i := 0; s.Stats().Size < 48<<20; i++ {
		k := key(i % keys)
		if got, _, _ := get(t, s, k); got != last[k] { // read it through the mapping, a round after it was written
			t.Fatalf("commit %d: %s reads back %d bytes, want the %d written a round ago", i, k, len(got), len(last[k]))
		}
		v := filler(i, size)
		put(t, s, k, v)
		last[k] = v
	}
	st := s.Stats()
	rss, _ := mappedRSS(t, path)
	live := uint64(keys * size)
	bound := live + 3*coldWindow + sweepGap(st.Size) + 1<<20
	t.Logf("file %d MiB, mapping RSS %d KiB, released %d MiB, bound %d KiB", st.Size>>20, rss>>10, st.ReleasedPages>>20, bound>>10)
	if rss > bound {
		t.Errorf("the mapping holds %d KiB resident after %d MiB written; want at most %d KiB (live %d KiB + 3 x the %d KiB window + a sweep's %d KiB + 1 MiB)",
			rss>>10, st.Size>>20, bound>>10, live>>10, coldWindow>>10, sweepGap(st.Size)>>10)
	}
}
