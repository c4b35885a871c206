package app

import (
	"slices"
	"strings"
)

// seq is an ordered sequence of entries by key: a table's rows (the key
// is the record's key) or an index's entries (the key is the index key).
// It is kept in chunks of at most chunkMax entries, each sorted and the
// chunks in order, so an insert moves at most a chunk's entries and a
// lookup is two binary searches. Positions (for pages and ranks) are found
// by adding up chunk lengths, one addition per chunk.
type seq struct {
	chunks [][]entry
	n      int
}

// entry is one key of a seq and its row.
type entry struct {
	k string
	r *row
}

// pos is a place in a seq: chunk c, entry i within it.
type pos struct{ c, i int }

const (
	chunkMax  = 512 // a chunk that grows past this splits in two
	chunkLoad = 384 // entries per chunk when loading in bulk
)

// locate returns k's place: the entry with key k (found) or where it
// would be inserted.
func (s *seq) locate(k string) (pos, bool) {
	ch := s.chunks
	if len(ch) == 0 {
		return pos{}, false
	}
	lo, hi := 1, len(ch) // the last chunk whose first key is <= k
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ch[m][0].k <= k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	c := lo - 1
	i, ok := slices.BinarySearchFunc(ch[c], k, func(e entry, k string) int { return strings.Compare(e.k, k) })
	return pos{c, i}, ok
}

// get returns the row with key k, or nil.
func (s *seq) get(k string) *row {
	p, ok := s.locate(k)
	if !ok {
		return nil
	}
	return s.chunks[p.c][p.i].r
}

// insert puts e at p (a place locate returned for e.k, not found).
func (s *seq) insert(p pos, e entry) {
	s.n++
	if len(s.chunks) == 0 {
		s.chunks = append(s.chunks, append(make([]entry, 0, 16), e))
		return
	}
	ch := slices.Insert(s.chunks[p.c], p.i, e)
	if len(ch) <= chunkMax {
		s.chunks[p.c] = ch
		return
	}
	half := len(ch) / 2
	tail := make([]entry, len(ch)-half, chunkMax)
	copy(tail, ch[half:])
	clear(ch[half:])
	s.chunks[p.c] = ch[:half]
	s.chunks = slices.Insert(s.chunks, p.c+1, tail)
}

// remove deletes the entry at p.
func (s *seq) remove(p pos) {
	s.n--
	ch := slices.Delete(s.chunks[p.c], p.i, p.i+1)
	if len(ch) == 0 {
		s.chunks = slices.Delete(s.chunks, p.c, p.c+1)
		return
	}
	s.chunks[p.c] = ch
}

// appendSorted adds e after every entry (bulk loading in key order).
func (s *seq) appendSorted(e entry) {
	s.n++
	last := len(s.chunks) - 1
	if last < 0 || len(s.chunks[last]) >= chunkLoad {
		s.chunks = append(s.chunks, make([]entry, 0, chunkMax))
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

// prev returns the place before p, and false at the start.
func (s *seq) prev(p pos) (pos, bool) {
	if p.i > 0 {
		return pos{p.c, p.i - 1}, true
	}
	if p.c == 0 {
		return pos{}, false
	}
	return pos{p.c - 1, len(s.chunks[p.c-1]) - 1}, true
}
