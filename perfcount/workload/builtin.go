package workload

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
)

// seed is the fixed seed of every built-in workload.
const seed = 0x5eed

func init() {
	Register(Workload{
		Name:        "sort-ints-10k",
		Description: "sort 10,000 seeded random ints (slices.Sort); no allocation, no maps",
		DefaultOps:  5,
		New:         newSort,
	})
	Register(Workload{
		Name:        "itoa-strconv-10k",
		Description: "format 10,000 seeded ints with strconv.AppendInt into a reused buffer",
		DefaultOps:  5,
		New:         func(ops int) (func(), func(), error) { return newItoa(ops, appendStrconv) },
	})
	Register(Workload{
		Name:        "itoa-fmt-10k",
		Description: "format 10,000 seeded ints with fmt.Appendf(\"%d\") into a reused buffer",
		DefaultOps:  5,
		New:         func(ops int) (func(), func(), error) { return newItoa(ops, appendFmt) },
	})
	Register(Workload{
		Name:        "alloc-strings-10k",
		Description: "format 10,000 seeded ints with strconv.Itoa, one new string each (allocates)",
		DefaultOps:  5,
		New:         newAllocStrings,
	})
	Register(Workload{
		Name:        "map-insert-1k",
		Description: "insert 1,000 seeded ints into a new map (shows Go's random map seeds)",
		DefaultOps:  20,
		New:         newMapInsert,
	})
}

func seededInts(n int) []int {
	rng := rand.New(rand.NewPCG(seed, seed))
	s := make([]int, n)
	for i := range s {
		s[i] = rng.IntN(1 << 40)
	}
	return s
}

func checkOps(ops int) error {
	if ops <= 0 {
		return fmt.Errorf("ops must be at least 1, got %d", ops)
	}
	return nil
}

func newSort(ops int) (func(), func(), error) {
	if err := checkOps(ops); err != nil {
		return nil, nil, err
	}
	src := seededInts(10_000)
	copies := make([][]int, ops)
	for i := range copies {
		copies[i] = slices.Clone(src)
	}
	run := func() {
		for _, c := range copies {
			slices.Sort(c)
		}
	}
	return run, nil, nil
}

// sink keeps the itoa workloads' output alive, so the compiler cannot drop the work.
//
//lint:ignore U1000 written, never read, on purpose
var sink []byte

func appendStrconv(buf []byte, v int) []byte { return strconv.AppendInt(buf, int64(v), 10) }
func appendFmt(buf []byte, v int) []byte     { return fmt.Appendf(buf, "%d", v) }

func newItoa(ops int, appendInt func([]byte, int) []byte) (func(), func(), error) {
	if err := checkOps(ops); err != nil {
		return nil, nil, err
	}
	src := seededInts(10_000)
	buf := make([]byte, 0, 32)
	// Warm what the formatter caches (fmt's printer pool) outside the region.
	buf = appendInt(buf[:0], src[0])
	run := func() {
		for range ops {
			for _, v := range src {
				buf = appendInt(buf[:0], v)
			}
		}
		sink = buf
	}
	return run, nil, nil
}

// sinkStrings keeps the alloc-strings workload's strings alive.
//
//lint:ignore U1000 written, never read, on purpose
var sinkStrings []string

func newAllocStrings(ops int) (func(), func(), error) {
	if err := checkOps(ops); err != nil {
		return nil, nil, err
	}
	src := seededInts(10_000)
	out := make([]string, len(src))
	run := func() {
		for range ops {
			for i, v := range src {
				out[i] = strconv.Itoa(v)
			}
		}
		sinkStrings = out
	}
	return run, func() { sinkStrings = nil }, nil
}

// sinkMap keeps the map-insert workload's map alive.
//
//lint:ignore U1000 written, never read, on purpose
var sinkMap map[int]int

func newMapInsert(ops int) (func(), func(), error) {
	if err := checkOps(ops); err != nil {
		return nil, nil, err
	}
	src := seededInts(1_000)
	run := func() {
		for range ops {
			m := make(map[int]int)
			for i, v := range src {
				m[v] = i
			}
			sinkMap = m
		}
	}
	return run, func() { sinkMap = nil }, nil
}
