package store

import (
	"fmt"
	"testing"
)

// BenchmarkGroupShapeRAM commits what one group of pure-kvbench's durable
// benchmark writes with 8 and with 64 writers, as one transaction in one
// goroutine: fresh keys, one from each writer in the group (8 of 8; 32 of
// 64, about what a 64-writer group holds), each writer's keys after all
// its earlier ones in its own range, 16-byte values, in RAM mode with
// files' fold bound, so that the leader's work per group (the overlay's
// merge, and one fold per 1,024 keys) can be counted alone. It reports
// the bytes written per group. The -mixed case puts a group's writers in
// a scrambled order, as they arrive at the leader, rather than by number.
func BenchmarkGroupShapeRAM(b *testing.B) {
	for _, c := range []struct {
		writers, group int
		mixed          bool
	}{{8, 8, false}, {64, 32, false}, {64, 32, true}} {
		name := fmt.Sprint("writers=", c.writers)
		if c.mixed {
			name += "-mixed"
		}
		b.Run(name, func(b *testing.B) {
			s, err := OpenRAM(&Options{FoldEntries: DefaultFoldEntries, AutoCompact: -1})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			val := []byte("0123456789abcdef")
			next := make([]int, c.writers)
			var k []byte
			b.ReportAllocs()
			size0, n := s.Stats().Size, 0
			for i := 0; b.Loop(); i++ {
				n++
				tx, _ := s.Begin()
				for j := range c.group {
					w := (i*c.group + j) % c.writers
					if c.mixed { // arrival order, not the writers' order
						w = (i*c.group + j*37) % c.writers
					}
					k = fmt.Appendf(k[:0], "w%03d-%010d", w, next[w])
					next[w]++
					tx.Put(k, val, Any)
				}
				if _, err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(s.Stats().Size-size0)/float64(n), "file-B/op")
		})
	}
}
