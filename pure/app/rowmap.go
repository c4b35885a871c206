package app

import (
	"math/bits"
	"math/rand/v2"
)

// rowMap is a table's live rows by key: an open-addressing hash table
// with linear probing, for Get and for Put's and Delete's finding of a
// key's row. Each slot holds the key's heads (seq.go) beside the row, so
// a probe compares two integers in the slot and reads the row only on a
// match, as the caller does anyway; the key's bytes are read only for
// keys over 16 bytes. A cold key costs a slot's cache line and the row's,
// where Go's map also reads the key's bytes and the seq's binary search
// one line per step. It is at most half full, and a delete shifts the
// entries after it back (no tombstones).
type rowMap struct {
	slots  []slot // a power of two of them, or none
	n      int    // rows held
	s0, s1 uint64 // this map's hash seeds
}

// slot is one place of a rowMap: r nil if empty.
type slot struct {
	h, t uint64 // heads(r.key)
	r    *row
}

// newRowMap returns a map with room for n rows before it grows.
func newRowMap(n int) rowMap {
	m := rowMap{s0: rand.Uint64(), s1: rand.Uint64()}
	if n > 0 {
		m.slots = make([]slot, max(16, 1<<bits.Len(uint(2*n))))
	}
	return m
}

// hash returns the hash of key k, of heads h and t.
func (m *rowMap) hash(h, t uint64, k string) uint64 {
	x := mix(h^m.s0, t^m.s1^uint64(len(k)))
	for k = k[min(len(k), 16):]; len(k) > 0; {
		var w uint64
		if len(k) >= 8 {
			w, k = be64(k), k[8:]
		} else {
			w, k = padded(k), ""
		}
		x = mix(x^w, m.s1)
	}
	return x
}

// mix folds a and b into 64 bits: their 128-bit product's halves, xored.
func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// get returns the row with key k, or nil.
func (m *rowMap) get(k string) *row {
	if m.n == 0 {
		return nil
	}
	h, t := heads(k)
	mask := uint64(len(m.slots) - 1)
	for i := m.hash(h, t, k) & mask; ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.r == nil {
			return nil
		}
		if s.h == h && s.t == t && tailEqual(s.r.key, k) {
			return s.r
		}
	}
}

// put adds row r, whose key the map does not hold.
func (m *rowMap) put(r *row) {
	if 2*(m.n+1) > len(m.slots) {
		m.grow()
	}
	m.n++
	h, t := heads(r.key)
	m.place(slot{h, t, r}, m.hash(h, t, r.key))
}

// place puts s in the first empty slot from hash x on.
func (m *rowMap) place(s slot, x uint64) {
	mask := uint64(len(m.slots) - 1)
	i := x & mask
	for m.slots[i].r != nil {
		i = (i + 1) & mask
	}
	m.slots[i] = s
}

// grow doubles the slots (16 at first), placing every row again.
func (m *rowMap) grow() {
	old := m.slots
	m.slots = make([]slot, max(16, 2*len(old)))
	for _, s := range old {
		if s.r != nil {
			m.place(s, m.hash(s.h, s.t, s.r.key))
		}
	}
}

// delete removes the row with key k, which the map holds; each entry
// after it in its run that may move back (its hash's place is not
// between the emptied slot and it) moves into the emptied slot.
func (m *rowMap) delete(k string) {
	h, t := heads(k)
	mask := uint64(len(m.slots) - 1)
	i := m.hash(h, t, k) & mask
	for {
		s := &m.slots[i]
		if s.r == nil {
			panic("app: rowMap.delete of an absent key; this is a bug in package app")
		}
		if s.h == h && s.t == t && tailEqual(s.r.key, k) {
			break
		}
		i = (i + 1) & mask
	}
	m.n--
	for j := (i + 1) & mask; m.slots[j].r != nil; j = (j + 1) & mask {
		s := m.slots[j]
		home := m.hash(s.h, s.t, s.r.key) & mask
		// s may fill i unless its home is cyclically in (i, j]
		if (j-home)&mask >= (j-i)&mask {
			m.slots[i] = s
			i = j
		}
	}
	m.slots[i] = slot{}
}
