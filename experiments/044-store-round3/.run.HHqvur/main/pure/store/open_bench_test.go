package store

// The open-time measurement of experiments/028-store-open-time. This file
// uses only the store's public API (and fadvise), so the experiment's
// script can copy it into a tree of the commit before checkpoints and
// measure both the same way.

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOpenTime_Build builds the file an open-time measurement opens, when
// STORE_OPEN_BUILD names it: fresh keys in transactions of 1,000 with
// 900-byte values until the file holds STORE_OPEN_SIZE MiB of records,
// Close, reopen, then a tail of 200 one-key commits after which the
// process ends without Close, as a crash would leave it (every commit
// synced, nothing after the last one). Skipped otherwise.
func TestOpenTime_Build(t *testing.T) {
	path := os.Getenv("STORE_OPEN_BUILD")
	if path == "" {
		t.Skip("STORE_OPEN_BUILD not set: this builds a file for experiments/028-store-open-time")
	}
	mib, err := strconv.Atoi(os.Getenv("STORE_OPEN_SIZE"))
	if err != nil || mib < 1 {
		t.Fatalf("STORE_OPEN_SIZE=%q: want a size in MiB", os.Getenv("STORE_OPEN_SIZE"))
	}
	opts := &Options{AutoCompact: -1} // the file grows as before automatic compaction
	s, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	val := make([]byte, 900)
	for i := range val {
		val[i] = byte('a' + i%26)
	}
	n := 0
	for s.Stats().Size < uint64(mib)<<20 {
		tx, _ := s.Begin()
		for range 1000 {
			tx.Put(fmt.Appendf(nil, "k%09d", n), val, Any)
			n++
		}
		if _, err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path, opts); err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		tx, _ := s.Begin()
		tx.Put(fmt.Appendf(nil, "k%09d", i*7919%n), val[:100], Any)
		if _, err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Printf("built %s: %d keys, %d bytes of records\n", path, s.Stats().Keys, s.Stats().Size)
	// No Close: the tail stays as a crash leaves it.
}

// BenchmarkOpen opens the file STORE_OPEN_FILE read-only (so every open
// recovers the same bytes: nothing is truncated or written), once after
// dropping the file's pages from the page cache (cold) and once right
// after (warm). Use -test.benchtime=1x. Skipped without STORE_OPEN_FILE.
func BenchmarkOpen(b *testing.B) {
	path := os.Getenv("STORE_OPEN_FILE")
	if path == "" {
		b.Skip("STORE_OPEN_FILE not set: this measures experiments/028-store-open-time")
	}
	for _, cold := range []bool{true, false} {
		name := "warm"
		if cold {
			name = "cold"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				if cold {
					dropCache(b, path)
				}
				b.StartTimer()
				s, err := Open(path, &Options{ReadOnly: true})
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
				b.StartTimer()
			}
		})
	}
}

// dropCache asks the kernel to drop the file's clean pages from the page
// cache (only this file's: the machine is shared).
func dropCache(b *testing.B, path string) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		b.Fatal(err)
	}
}
