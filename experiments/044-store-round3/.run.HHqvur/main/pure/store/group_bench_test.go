package store

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkGroupCommit commits one 16-byte value per transaction from W
// writers to a file, each writer inserting its own new keys in order (the
// workload of pure-kvbench's durable-commit-W, experiments/002 and 029),
// and reports the bytes each commit appends and the commits per sync.
func BenchmarkGroupCommit(b *testing.B) {
	for _, w := range []int{1, 8, 64} {
		for _, ns := range []int{0, 1024} {
			b.Run(fmt.Sprintf("writers=%d/node=%d", w, ns), func(b *testing.B) {
				benchGroupCommit(b, w, ns)
			})
		}
	}
}

func benchGroupCommit(b *testing.B, writers, nodeSize int) {
	s, err := Open(tempPath(b), &Options{nodeSize: nodeSize, AutoCompact: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	val := []byte("0123456789abcdef")
	var next atomic.Int64
	start := s.Stats()
	b.ResetTimer()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := make([]byte, 0, 32)
			for n := 0; next.Add(1) <= int64(b.N); n++ {
				k = append(append(append(k[:0], 'w'), strconv.Itoa(1000+w)...), '-')
				k = strconv.AppendInt(k, 1e10+int64(n), 10)
				tx, _ := s.Begin()
				tx.Put(k, val, Any)
				if _, err := tx.Commit(); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	end := s.Stats()
	b.ReportMetric(float64(end.Size-start.Size)/float64(b.N), "B/commit")
	b.ReportMetric(float64(b.N)/float64(end.Publications-start.Publications), "commits/sync")
}

// BenchmarkSyncSize appends kib KiB over preallocated zeros and calls
// fdatasync, as a commit does once the file is preallocated: what one
// group's sync costs against the bytes it writes (experiments/029).
func BenchmarkSyncSize(b *testing.B) {
	for _, kib := range []int{1, 4, 16, 64, 256} {
		b.Run(fmt.Sprintf("kib=%d", kib), func(b *testing.B) {
			f, err := os.Create(tempPath(b))
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			const span = 32 << 20
			if _, err := f.WriteAt(make([]byte, span), 0); err != nil {
				b.Fatal(err)
			}
			if err := f.Sync(); err != nil {
				b.Fatal(err)
			}
			buf := make([]byte, kib<<10)
			for i := range buf {
				buf[i] = byte(i)
			}
			off := int64(0)
			b.ResetTimer()
			for range b.N {
				if off+int64(len(buf)) > span {
					off = 0
				}
				if _, err := f.WriteAt(buf, off); err != nil {
					b.Fatal(err)
				}
				if err := unix.Fdatasync(int(f.Fd())); err != nil {
					b.Fatal(err)
				}
				off += int64(len(buf))
			}
		})
	}
}
