package store

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// TestConcurrent_ReadersWritersCompaction runs readers (snapshots, range
// scans, borrows held across commits) against writers, compactions and
// remaps, and checks that every read is self-consistent. Run it with -race.
func TestConcurrent_ReadersWritersCompaction(t *testing.T) {
	for _, ram := range []bool{false, true} {
		t.Run(fmt.Sprint("ram=", ram), func(t *testing.T) {
			opts := &Options{nodeSize: 512, mapMin: 1 << 16}
			var s *Store
			var err error
			if ram {
				opts.AutoCompact = 1 << 18
				s, err = OpenRAM(opts)
			} else {
				s, err = Open(tempPath(t), opts)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			value := func(k string, n int) []byte {
				return append([]byte(k+"|"), bytes.Repeat([]byte{byte('a' + n%26)}, n%3000)...)
			}
			var stop atomic.Bool
			var wg sync.WaitGroup
			for w := range 3 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range 100 {
						tx, _ := s.Begin()
						for j := range 5 {
							k := key((w*1000 + i*5 + j) % 400)
							tx.Put([]byte(k), value(k, i*7+j), Any)
						}
						if _, err := tx.Commit(); err != nil {
							t.Error(err)
							return
						}
						if w == 0 && i%40 == 39 {
							if err := s.Compact(); err != nil {
								t.Error(err)
								return
							}
						}
					}
				}()
			}
			var readers sync.WaitGroup
			for range 2 {
				readers.Add(1)
				go func() {
					defer readers.Done()
					var held []*Borrowed
					var want [][]byte
					for n := 0; !stop.Load(); n++ {
						sn, err := s.Snapshot()
						if err != nil {
							t.Error(err)
							return
						}
						count := 0
						sn.Range(nil, nil, func(k, v []byte, rev uint64) bool {
							if !bytes.HasPrefix(v, append(k, '|')) || rev == 0 || rev > sn.Rev() {
								t.Errorf("inconsistent read of %q", k)
								return false
							}
							count++
							return true
						})
						if count != sn.Len() {
							t.Errorf("range saw %d keys, snapshot has %d", count, sn.Len())
						}
						if b, ok := sn.Borrow([]byte(key(n % 400))); ok {
							held = append(held, b)
							want = append(want, bytes.Clone(b.Bytes()))
						}
						sn.Release()
						if len(held) > 20 {
							for i, b := range held {
								if !bytes.Equal(b.Bytes(), want[i]) {
									t.Error("borrowed value changed")
								}
								b.Release()
							}
							held, want = held[:0], want[:0]
						}
					}
					for _, b := range held {
						b.Release()
					}
				}()
			}
			wg.Wait()
			stop.Store(true)
			readers.Wait()
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
