package store

import (
	"fmt"
	"testing"
)

// BenchmarkGroup32RAM commits what one group of the 64-writer durable
// benchmark writes (pure-kvbench): 32 fresh keys, one from each of 32 of
// 64 writers' ranges, 16-byte values, as one transaction in RAM mode
// with files' fold bound, so that the leader's work per group (the
// overlay's merge and one fold per 1,024 keys) runs in one goroutine.
func BenchmarkGroup32RAM(b *testing.B) {
	s, err := OpenRAM(&Options{FoldEntries: DefaultFoldEntries, AutoCompact: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	val := []byte("0123456789abcdef")
	var next [64]int
	var k []byte
	b.ReportAllocs()
	size0 := s.Stats().Size
	n := 0
	for i := 0; b.Loop(); i++ {
		n++
		tx, _ := s.Begin()
		for j := range 32 {
			w := (i*32 + j) % 64
			k = fmt.Appendf(k[:0], "w%03d-%010d", w, next[w])
			next[w]++
			tx.Put(k, val, Any)
		}
		if _, err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(s.Stats().Size-size0)/float64(n), "file-B/op")
}
