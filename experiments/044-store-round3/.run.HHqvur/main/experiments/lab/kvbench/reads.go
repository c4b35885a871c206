package kvbench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// ReadOptions sizes a PointGets or Ranges measurement.
type ReadOptions struct {
	// Keys is the number of keys the store was loaded with (Load).
	Keys int
	// Duration is how long to keep reading. Ignored when Count is set.
	Duration time.Duration
	// Count, when positive, is the number of operations instead.
	Count int
	// Seed seeds the generator of the keys read; the same seed reads the
	// same keys in the same order in every contender.
	Seed uint64
	// ScanLen is the number of keys per range scan (Ranges only).
	ScanLen int
}

// clockEvery is how many reads run between two looks at the clock, so
// that reading the clock costs little beside a read of a few hundred
// nanoseconds.
const clockEvery = 64

// Load loads keys keys into s (Store.Load) with the 16-byte Value, then
// scans every key once, so that every contender's reads start with the
// store in memory (the mapping's pages touched, pebble's block cache
// filled) rather than with whatever the load happened to leave there.
func Load(s Store, keys int) error {
	if err := s.Load(keys, Value); err != nil {
		return fmt.Errorf("load %d keys: %w", keys, err)
	}
	var sum int
	n, err := s.Scan(AppendReadKey(nil, 0), keys, func(k, v []byte) { sum += len(k) + len(v) })
	if err != nil {
		return fmt.Errorf("warm-up scan of %d keys: %w", keys, err)
	}
	if n != keys {
		return fmt.Errorf("warm-up scan: found %d keys, loaded %d", n, keys)
	}
	return nil
}

// PointGets measures Get of keys drawn uniformly from the loaded store by
// a generator seeded with o.Seed, one reader, each value copied into a
// reused buffer. A missing key is an error. Single reads are not timed.
func PointGets(ctx context.Context, s Store, o ReadOptions) (Result, error) {
	if o.Keys <= 0 {
		return Result{}, errors.New("point gets: the store has no keys")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 1))
	var key, val []byte
	return readLoop(ctx, s, o, func() error {
		i := rng.IntN(o.Keys)
		key = AppendReadKey(key[:0], i)
		var ok bool
		var err error
		val, ok, err = s.Get(key, val)
		if err != nil {
			return err
		}
		if !ok || len(val) != len(Value) {
			return fmt.Errorf("get %s: found %v, %d bytes; want the loaded %d-byte value", key, ok, len(val), len(Value))
		}
		return nil
	})
}

// Ranges measures scans of o.ScanLen consecutive keys from a start drawn
// uniformly (seeded by o.Seed) among the keys that have o.ScanLen keys at
// or after them, one reader. The scan touches every key and value; a scan
// that visits fewer keys is an error.
func Ranges(ctx context.Context, s Store, o ReadOptions) (Result, error) {
	if o.ScanLen <= 0 || o.Keys < o.ScanLen {
		return Result{}, fmt.Errorf("ranges: cannot scan %d keys of a store of %d", o.ScanLen, o.Keys)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 2))
	var from []byte
	var sum int
	visit := func(k, v []byte) { sum += len(k) + len(v) }
	return readLoop(ctx, s, o, func() error {
		i := rng.IntN(o.Keys - o.ScanLen + 1)
		from = AppendReadKey(from[:0], i)
		n, err := s.Scan(from, o.ScanLen, visit)
		if err != nil {
			return err
		}
		if n != o.ScanLen {
			return fmt.Errorf("scan from %s: visited %d keys, want %d", from, n, o.ScanLen)
		}
		return nil
	})
}

// readLoop runs op until o.Count operations or o.Duration have passed,
// looking at the clock every clockEvery operations.
func readLoop(ctx context.Context, s Store, o ReadOptions, op func() error) (Result, error) {
	if o.Count <= 0 && o.Duration <= 0 {
		return Result{}, errors.New("reads: need a duration or a count")
	}
	var r Result
	m := startMeter(s)
	t0 := time.Now()
	deadline := t0.Add(o.Duration)
	var err error
	for {
		if o.Count > 0 && r.Ops >= int64(o.Count) {
			break
		}
		if o.Count <= 0 && r.Ops%clockEvery == 0 && r.Ops > 0 {
			if !time.Now().Before(deadline) || ctx.Err() != nil {
				break
			}
		}
		if err = op(); err != nil {
			break
		}
		r.Ops++
	}
	r.Elapsed = time.Since(t0)
	m.stop(&r)
	return r, err
}
