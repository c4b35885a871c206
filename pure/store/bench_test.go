package store

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// fill commits n keys of valSize-byte values in transactions of 1,000.
func fill(b *testing.B, s *Store, n, valSize int) {
	b.Helper()
	val := bytes.Repeat([]byte("v"), valSize)
	for i := 0; i < n; i += 1000 {
		tx, _ := s.Begin()
		for j := i; j < min(n, i+1000); j++ {
			tx.Put([]byte(key(j)), val, Any)
		}
		if _, err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

func openRAM(b *testing.B) *Store {
	s, err := OpenRAM(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkGet reads one key of 100,000 from a pinned snapshot.
func BenchmarkGet(b *testing.B) {
	s := openRAM(b)
	const n = 100000
	fill(b, s, n, 64)
	keys := make([][]byte, 1024)
	for i := range keys {
		keys[i] = []byte(key(i * 7919 % n))
	}
	sn, _ := s.Snapshot()
	defer sn.Release()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, _, ok := sn.Get(keys[i&1023]); !ok {
			b.Fatal("missing")
		}
	}
}

// BenchmarkBorrow borrows and releases one value from the current version.
func BenchmarkBorrow(b *testing.B) {
	s := openRAM(b)
	fill(b, s, 100000, 64)
	k := []byte(key(4242))
	b.ReportAllocs()
	for b.Loop() {
		v, _, _ := s.Borrow(k)
		v.Release()
	}
}

// BenchmarkRange100 scans 100 consecutive keys.
func BenchmarkRange100(b *testing.B) {
	s := openRAM(b)
	const n = 100000
	fill(b, s, n, 64)
	sn, _ := s.Snapshot()
	defer sn.Release()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		from := []byte(key(i * 7919 % (n - 100)))
		c := 0
		sn.Range(from, nil, func(k, v []byte, rev uint64) bool { c++; return c < 100 })
		if c != 100 {
			b.Fatal(c)
		}
	}
}

// BenchmarkPutCommitRAM commits one 64-byte put per transaction in RAM
// mode, into a store of 100,000 keys.
func BenchmarkPutCommitRAM(b *testing.B) {
	s := openRAM(b)
	const n = 100000
	fill(b, s, n, 64)
	val := bytes.Repeat([]byte("w"), 64)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		tx, _ := s.Begin()
		tx.Put([]byte(key(i*7919%n)), val, Any)
		if _, err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTx100CommitRAM commits transactions of 100 random puts in RAM
// mode.
func BenchmarkTx100CommitRAM(b *testing.B) {
	s := openRAM(b)
	const n = 100000
	fill(b, s, n, 64)
	val := bytes.Repeat([]byte("w"), 64)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		tx, _ := s.Begin()
		for j := range 100 {
			tx.Put([]byte(key((i*100+j)*7919%n)), val, Any)
		}
		if _, err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDurableCommit commits one 64-byte put per transaction to a file
// from 1, 8 and 64 goroutines; group commit shares the syncs. It reports
// commits per sync.
func BenchmarkDurableCommit(b *testing.B) {
	for _, g := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("goroutines=%d", g), func(b *testing.B) {
			s, err := Open(tempPath(b), nil)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			fill(b, s, 10000, 64)
			val := bytes.Repeat([]byte("w"), 64)
			pubs := s.Stats().Publications
			var next atomic.Int64
			b.ResetTimer()
			var wg sync.WaitGroup
			for w := range g {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := next.Add(1)
						if i > int64(b.N) {
							return
						}
						tx, _ := s.Begin()
						tx.Put([]byte(key((int(i)*64+w)%10000)), val, Any)
						if _, err := tx.Commit(); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			if p := s.Stats().Publications - pubs; p > 0 {
				b.ReportMetric(float64(b.N)/float64(p), "commits/sync")
			}
		})
	}
}

// BenchmarkGetOverlay is BenchmarkGet with the log records of 1,000
// one-key commits laid over the tree (under the default fold bound), so
// every read looks in the overlay first; keys=tree reads keys of the tree,
// keys=log keys of the records.
func BenchmarkGetOverlay(b *testing.B) {
	for _, ov := range []int{0, 1000} {
		for _, which := range []string{"tree", "log"} {
			if ov == 0 && which == "log" {
				continue
			}
			b.Run(fmt.Sprintf("overlay=%d/keys=%s", ov, which), func(b *testing.B) {
				s := openRAM(b)
				const n = 100000
				fill(b, s, n, 64)
				val := bytes.Repeat([]byte("v"), 64)
				for i := range ov {
					tx, _ := s.Begin()
					tx.Put([]byte(key(n+i*7)), val, Any)
					if _, err := tx.Commit(); err != nil {
						b.Fatal(err)
					}
				}
				if v := s.cur.Load(); (v.ov != nil && v.ov.n == ov) != (ov > 0) {
					b.Fatalf("overlay of %v, want %d keys", v.ov != nil, ov)
				}
				keys := make([][]byte, 1024)
				for i := range keys {
					keys[i] = []byte(key(i * 7919 % n))
					if which == "log" {
						keys[i] = []byte(key(n + (i%ov)*7))
					}
				}
				sn, _ := s.Snapshot()
				defer sn.Release()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					if _, _, ok := sn.Get(keys[i&1023]); !ok {
						b.Fatal("missing")
					}
				}
			})
		}
	}
}

// BenchmarkGetOverlayDocs reads keys as pure-serve's documents make them:
// a file store whose 65 short keys ("d/d00" ...), written one commit
// each, are all in the overlay (a few runs, under the fold bound).
func BenchmarkGetOverlayDocs(b *testing.B) {
	s := mustOpen(b, b.TempDir()+"/db", nil)
	defer s.Close()
	val := bytes.Repeat([]byte("v"), 64)
	keys := make([][]byte, 65)
	for i := range keys {
		keys[i] = []byte(fmt.Sprintf("d/d%02d", i))
		tx, _ := s.Begin()
		tx.Put(keys[i], val, Any)
		if _, err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	if v := s.cur.Load(); v.ov == nil || v.ov.n != len(keys) || len(v.ov.spans) < 2 {
		b.Fatalf("want the %d keys in an overlay of several runs", len(keys))
	}
	sn, _ := s.Snapshot()
	defer sn.Release()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, ok := sn.Get(keys[i%len(keys)]); !ok {
			b.Fatal("missing")
		}
	}
}
