// Package storework registers the tree store's workloads with pure-count:
// point gets, single-key puts, 100-key range scans and 100-key transaction
// commits, all in RAM mode (no file, no sync) and from a fixed seed, so that
// their instruction counts measure the store's code and nothing else.
//
// Every one may rerun its region on the same preparation (pure-count run
// --rerun): gets and range scans only read, and the commits overwrite
// existing keys with a fixed value, so a second run does the same work on a
// store of the same shape.
package storework

import (
	"fmt"
	"math/rand/v2"

	"workbench/perfcount/workload"
	"workbench/pure/store"
)

// Keys is the number of keys the store is loaded with before each region.
const Keys = 20_000

// seed fixes every workload's keys and values.
const seed = 0x5702e

func init() {
	workload.Register(workload.Workload{
		Name:        "store-get",
		Description: "point Get of a seeded random key in a 20,000-key RAM store (one snapshot)",
		DefaultOps:  10_000,
		New:         newGet,
		Rerun:       true,
	})
	workload.Register(workload.Workload{
		Name:        "store-put",
		Description: "commit a transaction putting one 16-byte value, RAM store of 20,000 keys",
		DefaultOps:  1_000,
		New:         newPut,
		Rerun:       true,
	})
	workload.Register(workload.Workload{
		Name:        "store-range-100",
		Description: "scan 100 keys from a seeded random start, RAM store of 20,000 keys",
		DefaultOps:  1_000,
		New:         newRange,
		Rerun:       true,
	})
	workload.Register(workload.Workload{
		Name:        "store-tx100-commit",
		Description: "commit one transaction putting 100 seeded keys, RAM store of 20,000 keys",
		DefaultOps:  20,
		New:         newTx100,
		Rerun:       true,
	})
}

func key(i int) []byte { return fmt.Appendf(nil, "k%08d", i) }

// loaded opens a RAM store holding Keys keys with 16-byte values.
func loaded() (*store.Store, error) {
	s, err := store.OpenRAM(nil)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	const batch = 10_000
	for lo := 0; lo < Keys; lo += batch {
		tx, err := s.Begin()
		if err != nil {
			s.Close()
			return nil, err
		}
		for i := lo; i < lo+batch && i < Keys; i++ {
			v := make([]byte, 16)
			for j := range v {
				v[j] = byte(rng.Uint32())
			}
			if err := tx.Put(key(i), v, store.Any); err != nil {
				s.Close()
				return nil, err
			}
		}
		if _, err := tx.Commit(); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := reserve(s); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// reserveBytes is how far the RAM image is grown before a region.
const reserveBytes = 17 << 20

// reserve grows the store's RAM image before the region, by committing a
// large value and deleting it, so that the region's commits are not the
// ones that double the image: a doubling allocates a new image of up to
// tens of MiB, and whether the runtime must zero it depends on the heap's
// history, which made about one run in ten of store-put count 7 % more
// (all of it in runtime.memclrNoHeapPointers under memFile.Map).
func reserve(s *store.Store) error {
	big := make([]byte, reserveBytes)
	for _, del := range []bool{false, true} {
		tx, err := s.Begin()
		if err != nil {
			return err
		}
		if del {
			err = tx.Delete([]byte("~reserve"), store.Any)
		} else {
			err = tx.Put([]byte("~reserve"), big, store.Any)
		}
		if err == nil {
			_, err = tx.Commit()
		}
		if err != nil {
			return fmt.Errorf("reserving the RAM image: %w", err)
		}
	}
	return nil
}

// picks returns n seeded key indexes below limit, as keys.
func picks(n, limit int, stream uint64) [][]byte {
	rng := rand.New(rand.NewPCG(seed, stream))
	ks := make([][]byte, n)
	for i := range ks {
		ks[i] = key(rng.IntN(limit))
	}
	return ks
}

func checkOps(ops int) error {
	if ops <= 0 {
		return fmt.Errorf("ops must be at least 1, got %d", ops)
	}
	return nil
}

// sinkRev keeps the get and range workloads' sums alive.
//
//lint:ignore U1000 written, never read, on purpose
var sinkRev uint64

// loadedSnapshot checks ops, loads a store and pins a snapshot of it for
// the read workloads.
func loadedSnapshot(ops int) (*store.Store, *store.Snapshot, error) {
	if err := checkOps(ops); err != nil {
		return nil, nil, err
	}
	s, err := loaded()
	if err != nil {
		return nil, nil, err
	}
	sn, err := s.Snapshot()
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, sn, nil
}

func newGet(ops int) (func(), func(), error) {
	s, sn, err := loadedSnapshot(ops)
	if err != nil {
		return nil, nil, err
	}
	ks := picks(ops, Keys, 2)
	run := func() {
		var sum uint64
		for _, k := range ks {
			_, rev, ok := sn.Get(k)
			if ok {
				sum += rev
			}
		}
		sinkRev = sum
	}
	return run, func() { sn.Release(); s.Close() }, nil
}

func newPut(ops int) (func(), func(), error) {
	return newCommits("store-put", ops, 1, 3, []byte("0123456789abcdef"))
}

func newRange(ops int) (func(), func(), error) {
	s, sn, err := loadedSnapshot(ops)
	if err != nil {
		return nil, nil, err
	}
	starts := picks(ops, Keys-100, 4)
	run := func() {
		var sum uint64
		for _, from := range starts {
			n := 0
			sn.Range(from, nil, func(_, _ []byte, rev uint64) bool {
				sum += rev
				n++
				return n < 100
			})
		}
		sinkRev = sum
	}
	return run, func() { sn.Release(); s.Close() }, nil
}

func newTx100(ops int) (func(), func(), error) {
	return newCommits("store-tx100-commit", ops, 100, 5, []byte("fedcba9876543210"))
}

// newCommits prepares ops transactions of perTx puts of val to seeded keys
// (from the given stream), each committed. A failed commit is reported by
// the cleanup, outside the counted region, as a panic naming the workload.
func newCommits(name string, ops, perTx int, stream uint64, val []byte) (func(), func(), error) {
	if err := checkOps(ops); err != nil {
		return nil, nil, err
	}
	s, err := loaded()
	if err != nil {
		return nil, nil, err
	}
	ks := picks(perTx*ops, Keys, stream)
	var failed error
	run := func() {
		for op := range ops {
			tx, err := s.Begin()
			for _, k := range ks[perTx*op : perTx*op+perTx] {
				if err == nil {
					err = tx.Put(k, val, store.Any)
				}
			}
			if err == nil {
				_, err = tx.Commit()
			}
			if err != nil && failed == nil {
				failed = err
			}
		}
	}
	return run, func() {
		s.Close()
		if failed != nil {
			panic(fmt.Sprintf("%s: %v", name, failed))
		}
	}, nil
}
