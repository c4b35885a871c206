package app

import (
	"cmp"
	"slices"
	"strings"
)

// seq is an ordered sequence of entries by key: a table's rows (the key
// is the record's key) or an index's entries (the key is the index key).
// It is kept in chunks of at most chunkMax entries, each sorted and the
// chunks in order, so an insert moves at most a chunk's entries and a
// lookup is two binary searches. Positions (for pages and ranks) are found
// by adding up chunk lengths, one addition per chunk. The heads of each
// chunk's first key are also kept side by side (firsts), so the search
// for the chunk reads one small array, not the first entry of every chunk
// it visits, a cache miss each in a large table (TPC-C's 300,000 order
// lines are 800 chunks).
type seq struct {
	chunks [][]entry
	firsts []heads2 // firsts[c]: the heads of chunks[c][0].k
	n      int
}

// heads2 is a key's heads (h, t of heads).
type heads2 struct{ h, t uint64 }

// entry is one key of a seq and its row. h and t are the key's first 16
// bytes as two integers (heads(k)): a lookup compares them, integers held
// in the entry, and reads the key's bytes only when both are equal, so a
// binary search touches the chunk alone and not the strings it points to.
// Sixteen bytes, not eight: keys of decimal digits share their first
// bytes (TPC-C's stock keys "0001" and the item's six digits, ten bytes;
// its order lines sixteen), so with one integer most comparisons read the
// key's bytes, a cache miss each.
type entry struct {
	k    string
	h, t uint64
	r    *row
}

// mkEntry returns the entry of key k and row r.
func mkEntry(k string, r *row) entry {
	h, t := heads(k)
	return entry{k, h, t, r}
}

// heads returns bytes 0-7 and 8-15 of k as big-endian integers, zeros
// after the end of a shorter k. They keep the order of keys: (h, t) of a
// smaller than of b (compared h first) implies a < b, and a < b implies
// (h, t) of a <= of b; equal pairs say nothing, so the keys are compared
// then.
func heads(k string) (h, t uint64) {
	if len(k) >= 16 {
		return be64(k), be64(k[8:])
	}
	if len(k) >= 8 {
		return be64(k), padded(k[8:])
	}
	return padded(k), 0
}

// be64 returns the first 8 bytes of k (at least 8) as a big-endian integer.
func be64(k string) uint64 {
	_ = k[7]
	return uint64(k[7]) | uint64(k[6])<<8 | uint64(k[5])<<16 | uint64(k[4])<<24 |
		uint64(k[3])<<32 | uint64(k[2])<<40 | uint64(k[1])<<48 | uint64(k[0])<<56
}

// padded returns k (under 8 bytes) as a big-endian integer, zeros after
// its end.
func padded(k string) uint64 {
	var h uint64
	for i := 0; i < len(k); i++ {
		h |= uint64(k[i]) << (56 - 8*i)
	}
	return h
}

// pos is a place in a seq: chunk c, entry i within it.
type pos struct{ c, i int }

const (
	chunkMax  = 512 // a chunk that grows past this splits in two
	chunkLoad = 384 // entries per chunk when loading in bulk
)

// locate returns k's place: the entry with key k (found) or where it
// would be inserted. Both binary searches (the last chunk whose first key
// is <= k, then k's place in it) compare heads first.
func (s *seq) locate(k string) (pos, bool) {
	ch := s.chunks
	if len(ch) == 0 {
		return pos{}, false
	}
	h, t := heads(k)
	fs := s.firsts[:len(ch)]
	lo, hi := 1, len(ch) // the last chunk whose first key is <= k
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		var kLess bool // k is before chunk m's first key
		switch f := &fs[m]; {
		case h != f.h:
			kLess = h < f.h
		case t != f.t:
			kLess = t < f.t
		default:
			kLess = tailLess(k, ch[m][0].k)
		}
		if !kLess {
			lo = m + 1
		} else {
			hi = m
		}
	}
	c := lo - 1
	es := ch[c]
	i, j := 0, len(es) // the first entry whose key is >= k
	for i < j {
		m := int(uint(i+j) >> 1)
		if e := &es[m]; e.before(h, t, k) {
			i = m + 1
		} else {
			j = m
		}
	}
	return pos{c, i}, i < len(es) && es[i].h == h && es[i].t == t && tailEqual(es[i].k, k)
}

// before reports whether e's key is before key k, of heads h and t.
func (e *entry) before(h, t uint64, k string) bool {
	if e.h != h {
		return e.h < h
	}
	if e.t != t {
		return e.t < t
	}
	return tailLess(e.k, k)
}

// tailLess reports whether a < b for keys of equal heads. When one of
// them has at most 16 bytes, equal heads make it a prefix of the other
// (the other's next bytes up to 16 are zeros), so the shorter is the
// smaller, without reading their bytes.
func tailLess(a, b string) bool {
	if len(a) <= 16 || len(b) <= 16 {
		return len(a) < len(b) // the shorter is a prefix of the longer
	}
	return a[16:] < b[16:] // their first 16 bytes are equal
}

// cmpTail compares keys a and b of equal heads as strings.Compare does.
func cmpTail(a, b string) int {
	if len(a) <= 16 || len(b) <= 16 {
		return cmp.Compare(len(a), len(b)) // the shorter is a prefix of the longer
	}
	return strings.Compare(a[16:], b[16:]) // their first 16 bytes are equal
}

// tailEqual reports whether a == b for keys of equal heads.
func tailEqual(a, b string) bool {
	return len(a) == len(b) && (len(a) <= 16 || a == b)
}

// insert puts e at p (a place locate returned for e.k, not found).
func (s *seq) insert(p pos, e entry) {
	s.n++
	if len(s.chunks) == 0 {
		s.chunks = append(s.chunks, append(make([]entry, 0, 16), e))
		s.firsts = append(s.firsts[:0], heads2{e.h, e.t})
		return
	}
	ch := slices.Insert(s.chunks[p.c], p.i, e)
	if p.i == 0 {
		s.firsts[p.c] = heads2{e.h, e.t}
	}
	if len(ch) <= chunkMax {
		s.chunks[p.c] = ch
		return
	}
	// Split in half, or, when e went into the second half with at least
	// chunkMax/8 entries after it, just after e: e ends its chunk, so more
	// inserts at its place (ascending keys inside a range: TPC-C's new
	// orders and their lines, each district's after the last) are appends
	// that move nothing, where a split in half left them a memmove of up
	// to half a chunk each. Chunks stay at least chunkMax/8 long.
	half := len(ch) / 2
	if p.i >= half && len(ch)-(p.i+1) >= chunkMax/8 {
		half = p.i + 1
	}
	tail := make([]entry, len(ch)-half, chunkMax)
	copy(tail, ch[half:])
	clear(ch[half:])
	s.chunks[p.c] = ch[:half]
	s.chunks = slices.Insert(s.chunks, p.c+1, tail)
	s.firsts = slices.Insert(s.firsts, p.c+1, heads2{tail[0].h, tail[0].t})
}

// remove deletes the entry at p.
func (s *seq) remove(p pos) {
	s.n--
	ch := slices.Delete(s.chunks[p.c], p.i, p.i+1)
	if len(ch) == 0 {
		s.chunks = slices.Delete(s.chunks, p.c, p.c+1)
		s.firsts = slices.Delete(s.firsts, p.c, p.c+1)
		return
	}
	s.chunks[p.c] = ch
	if p.i == 0 {
		s.firsts[p.c] = heads2{ch[0].h, ch[0].t}
	}
}

// appendSorted adds e after every entry (bulk loading in key order).
func (s *seq) appendSorted(e entry) {
	s.n++
	last := len(s.chunks) - 1
	if last < 0 || len(s.chunks[last]) >= chunkLoad {
		s.chunks = append(s.chunks, make([]entry, 0, chunkMax))
		s.firsts = append(s.firsts, heads2{e.h, e.t})
		last++
	}
	s.chunks[last] = append(s.chunks[last], e)
}

// at returns the place of the entry at position n (0-based; n may be
// s.n, the end).
func (s *seq) at(n int) pos {
	for c, ch := range s.chunks {
		if n < len(ch) {
			return pos{c, n}
		}
		n -= len(ch)
	}
	return pos{len(s.chunks), 0}
}

// rank returns the position of place p.
func (s *seq) rank(p pos) int {
	n := p.i
	for _, ch := range s.chunks[:p.c] {
		n += len(ch)
	}
	return n
}
