package app

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestRowMap_MatchesGoMap: random puts, deletes and gets keep a rowMap
// equal to a Go map of the same keys, across growth and the backward
// shifts of deletes (a map of at most 300 keys, so runs wrap around the
// end of the slots), with keys whose heads are often equal: 0 to 21 bytes
// of "\x00ab" ("a" and "a\x00" have equal heads; keys over 16 bytes
// differ past their heads). A wrong shift leaves a key unreachable, which
// the full check after every step finds.
func TestRowMap_MatchesGoMap(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	key := func() string {
		b := make([]byte, 1+rng.IntN(21))
		for i := range b {
			b[i] = "\x00ab"[rng.IntN(3)]
		}
		if len(b) > 2 && rng.IntN(2) == 0 {
			copy(b, "aaaaaaaaaaaaaaaaaaa")
		}
		return string(b)
	}
	m := newRowMap(0)
	want := map[string]*row{}
	for step := range 20000 {
		k := key()
		switch r := want[k]; {
		case r != nil && (len(want) > 300 || rng.IntN(2) == 0):
			m.delete(k)
			delete(want, k)
		case r == nil:
			r = &row{key: k}
			m.put(r)
			want[k] = r
		}
		if m.n != len(want) {
			t.Fatalf("step %d: %d rows, want %d", step, m.n, len(want))
		}
		if 2*m.n > len(m.slots) {
			t.Fatalf("step %d: %d rows in %d slots, more than half full", step, m.n, len(m.slots))
		}
		if step%97 == 0 || len(want) < 40 {
			for k, r := range want {
				if got := m.get(k); got != r {
					t.Fatalf("step %d: get(%q) = %v, want the row put", step, k, got)
				}
			}
		}
		if k2 := key(); m.get(k2) != want[k2] {
			t.Fatalf("step %d: get(%q) = %v, want %v", step, k2, m.get(k2), want[k2])
		}
	}
}

// TestRowMap_Sized: a map made for n rows holds n without growing, and a
// table's point lookups allocate nothing.
func TestRowMap_Sized(t *testing.T) {
	m := newRowMap(1000)
	slots := len(m.slots)
	rows := make([]*row, 1000)
	for i := range rows {
		rows[i] = &row{key: fmt.Sprintf("%010d", i)}
		m.put(rows[i])
	}
	if len(m.slots) != slots {
		t.Fatalf("grew from %d to %d slots for the 1000 rows it was made for", slots, len(m.slots))
	}
	k := []byte("0000000500")
	if a := testing.AllocsPerRun(100, func() {
		if m.get(tmpString(k)) != rows[500] {
			panic("lost row 500")
		}
	}); a != 0 {
		t.Fatalf("get allocated %.0f times per call, want 0", a)
	}
}
