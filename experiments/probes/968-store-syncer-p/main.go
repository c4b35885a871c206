// Probe 968: does the store's syncer lose its P during fdatasync at 64
// writers? 64 goroutines commit one fresh 16-byte value each per
// transaction for DURATION; the middle second is traced (runtime/trace) to
// OUT for `go tool trace -d=parsed`.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/trace"
	"sync"
	"sync/atomic"
	"time"

	"workbench/pure/store"
)

func main() {
	dir := flag.String("dir", ".", "directory for the store (on the disk under study)")
	out := flag.String("out", "trace.out", "trace file")
	d := flag.Duration("duration", 3*time.Second, "length of the run; the second after the first is traced")
	flag.Parse()
	tmp, err := os.MkdirTemp(*dir, ".probe968-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(tmp)
	s, err := store.Open(filepath.Join(tmp, "db"), nil)
	if err != nil {
		panic(err)
	}
	var stop atomic.Bool
	var n atomic.Int64
	var wg sync.WaitGroup
	val := []byte("0123456789abcdef")
	for w := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := make([]byte, 12)
			binary.BigEndian.PutUint32(k, uint32(w))
			for i := uint64(0); !stop.Load(); i++ {
				binary.BigEndian.PutUint64(k[4:], i)
				tx, err := s.Begin()
				if err != nil {
					panic(err)
				}
				tx.Put(k, val, store.Any)
				if _, err := tx.Commit(); err != nil {
					panic(err)
				}
				n.Add(1)
			}
		}()
	}
	time.Sleep(time.Second)
	f, err := os.Create(*out)
	if err != nil {
		panic(err)
	}
	before := n.Load()
	trace.Start(f)
	time.Sleep(time.Second)
	trace.Stop()
	traced := n.Load() - before
	f.Close()
	time.Sleep(*d - 2*time.Second)
	stop.Store(true)
	wg.Wait()
	s.Close()
	fmt.Printf("commits %d in %v; %d in the traced second\n", n.Load(), *d, traced)
}
