package store

import (
	"bytes"
	"cmp"
	"hash/maphash"
	"slices"
)

// The commit leader's view of a group in log mode: the pending writes of
// the group over the tip's overlay and tree, the revisions transactions
// are validated against, and the new version's overlay entries.

// pending is an entry a group is writing into its log record.
type pending struct {
	key  []byte // in the transaction's buffer
	head uint64 // keyHead(key): merged sorts by it first
	off  uint64 // file offset the entry will have
	rev  uint64
	del  bool
	next int // once the map is in use: the previous pending write whose key has the same hash, or -1
}

// logView answers revisions for the commit leader in log mode: the
// group's own pending writes, then the overlay, then the tree.
type logView struct {
	d    []byte
	root uint64 // the tip's root
	end  uint64 // where the group's records start: entries below are in d
	ov   *overlay
	pend map[uint64]int // hash of a key -> index in news of the last write with that hash (chained by next)
	news []pending      // one per key, the newest write
}

// pendSeed seeds the hashes of logView.pend. A map keyed by the hash,
// not by the key as a string, so that a large group's keys are not each
// copied into a new string (a TPC-C New-Order writes about 23 keys, a
// Delivery about 120).
var pendSeed = maphash.MakeSeed()

// reset starts the view of a group over the tip with root and ov (or
// drops what the last group left, with nil).
func (lv *logView) reset(d []byte, root uint64, ov *overlay, end uint64) {
	lv.d, lv.root, lv.ov, lv.end = d, root, ov, end
	if lv.pend == nil {
		lv.pend = make(map[uint64]int)
	}
	if len(lv.news) > keepEntries {
		lv.pend = make(map[uint64]int)
		lv.news = nil
		return
	}
	if len(lv.news) > pendScan {
		clear(lv.pend)
	}
	clear(lv.news)
	lv.news = lv.news[:0]
}

// find returns the index in news of key's pending write: a scan while the
// group is small, the map once it is not (so small groups allocate
// nothing for it).
func (lv *logView) find(key []byte) (int, bool) {
	if len(lv.news) <= pendScan {
		for i := range lv.news {
			if bytes.Equal(lv.news[i].key, key) {
				return i, true
			}
		}
		return 0, false
	}
	i, ok := lv.pend[maphash.Bytes(pendSeed, key)]
	for ok {
		if bytes.Equal(lv.news[i].key, key) {
			return i, true
		}
		i = lv.news[i].next
		ok = i >= 0
	}
	return 0, false
}

// pendScan is the most pending writes looked up by a scan.
const pendScan = 16

func (lv *logView) rev(key []byte) uint64 {
	if i, ok := lv.find(key); ok {
		if p := &lv.news[i]; !p.del {
			return p.rev
		}
		return 0
	}
	if e, ok := lookupVersion(lv.d, lv.root, lv.ov, key); ok {
		return leafRev(lv.d, e)
	}
	return 0
}

// note records a write of the group.
func (lv *logView) note(p pending) {
	p.head = keyHead(p.key)
	if i, ok := lv.find(p.key); ok {
		p.next = lv.news[i].next // keep the hash chain
		lv.news[i] = p
		return
	}
	lv.news = append(lv.news, p)
	switch n := len(lv.news); {
	case n == pendScan+1: // the map takes over from the scan
		for i := range lv.news {
			lv.index(i)
		}
	case n > pendScan+1:
		lv.index(n - 1)
	}
}

// index adds news[i] to the map.
func (lv *logView) index(i int) {
	h := maphash.Bytes(pendSeed, lv.news[i].key)
	lv.news[i].next = -1
	if j, ok := lv.pend[h]; ok {
		lv.news[i].next = j
	}
	lv.pend[h] = i
}

// merged returns the overlay entries of lv's overlay with the group's
// writes laid over them, their heads (logheads.go), and their filter: the
// old overlay's with the group's keys added, or a new one once the
// entries outgrow it. The three share one allocation. lv.news is sorted
// by key first.
func (lv *logView) merged() (ents, heads, filter []uint64) {
	slices.SortFunc(lv.news, func(a, b pending) int {
		if a.head != b.head {
			return cmp.Compare(a.head, b.head)
		}
		return bytes.Compare(a.key, b.key)
	})
	var old, oldHeads, oldFilter []uint64
	if lv.ov != nil {
		old, oldHeads, oldFilter = lv.ov.ents, lv.ov.heads, lv.ov.filter
	}
	n := len(old) + len(lv.news) // at most; keys written again take no new entry
	fw := filterWords(n)
	grown := fw != len(oldFilter)
	mem := make([]uint64, fw+2*n)
	filter = mem[:fw:fw]
	if !grown {
		copy(filter, oldFilter)
		for i := range lv.news {
			filterAdd(filter, lv.news[i].key)
		}
	}
	ents = mem[fw : fw : fw+n]
	heads = mem[fw+n : fw+n : fw+2*n]
	d := lv.d
	for _, p := range lv.news {
		j, eq := searchEnts(d, old, oldHeads, p.key)
		ents = append(ents, old[:j]...)
		heads = append(heads, oldHeads[:j]...)
		if eq {
			j++
		}
		old, oldHeads = old[j:], oldHeads[j:]
		ents = append(ents, p.off)
		heads = append(heads, p.head)
	}
	ents = append(ents, old...)
	heads = append(heads, oldHeads...)
	if grown {
		// A larger filter: every key again, the old ones read from the
		// mapping, the group's from its transactions.
		for _, e := range ents {
			if e < lv.end {
				filterAdd(filter, logKey(d, e))
			}
		}
		for i := range lv.news {
			filterAdd(filter, lv.news[i].key)
		}
	}
	return ents, heads, filter
}

// validLog reports whether every revision tx relies on still holds
// against lv.
func (tx *Tx) validLog(lv *logView) bool {
	for _, c := range tx.checks {
		if lv.rev(tx.key(c.k0, c.k1)) != c.rev {
			return false
		}
	}
	return true
}
