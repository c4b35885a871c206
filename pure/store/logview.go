package store

import (
	"bytes"
	"hash/maphash"
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
	hash uint64 // once the table is in use: maphash of key
}

// logView answers revisions for the commit leader in log mode: the
// group's own pending writes, then the overlay, then the tree.
type logView struct {
	d    []byte
	root uint64 // the tip's root
	end  uint64 // where the group's records start: entries below are in d
	ov   *overlay
	// pend is an open-addressing table of news, used once the group
	// holds more than pendScan keys: slot = 1 + an index in news, 0
	// empty; its length a power of two at least twice len(news).
	pend []int32
	news []pending // one per key, the newest write
	// sorted and refs are gather's for a group of more than pendScan
	// keys: news sorted into sorted's memory, which then becomes news
	// (and news's memory sorted's).
	sorted []pending
	refs   []newsRef
	// The new overlay's runs (ovrun.go): gathered in rb, laid into arena.
	rb    runBuilder
	arena runArena
	// filter is the filter of the overlays merged since the last fold:
	// each adds its keys to it (logrec.go, mayHave).
	filter []uint64
}

// pendSeed seeds the hashes of logView.pend. A table of its own, not a
// map keyed by the key as a string, so that a large group's keys are not
// each copied into a new string (a TPC-C New-Order writes about 23 keys,
// a Delivery about 120); and not a Go map keyed by the hash, whose
// assignments and lookups were a tenth of the leader's instructions at
// 64 writers (experiment 112).
var pendSeed = maphash.MakeSeed()

// reset starts the view of a group over the tip with root and ov (or
// drops what the last group left, with nil).
func (lv *logView) reset(d []byte, root uint64, ov *overlay, end uint64) {
	lv.d, lv.root, lv.ov, lv.end = d, root, ov, end
	if len(lv.sorted) > 0 { // the other buffer: drop its keys (transactions' buffers)
		clear(lv.sorted)
		lv.sorted = lv.sorted[:0]
	}
	if len(lv.news) > keepEntries {
		lv.pend, lv.news, lv.sorted, lv.refs = nil, nil, nil, nil
		return
	}
	if len(lv.news) > pendScan {
		clear(lv.pend)
	}
	clear(lv.news)
	lv.news = lv.news[:0]
}

// find returns the index in news of key's pending write: a scan while the
// group is small, the table once it is not (so small groups allocate
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
	h := maphash.Bytes(pendSeed, key)
	mask := uint64(len(lv.pend) - 1)
	for j := h & mask; lv.pend[j] != 0; j = (j + 1) & mask {
		i := int(lv.pend[j] - 1)
		if p := &lv.news[i]; p.hash == h && bytes.Equal(p.key, key) {
			return i, true
		}
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
		p.hash = lv.news[i].hash
		lv.news[i] = p
		return
	}
	lv.news = append(lv.news, p)
	switch n := len(lv.news); {
	case n == pendScan+1: // the table takes over from the scan
		lv.rehash()
	case n > pendScan+1:
		if 2*n > len(lv.pend) {
			lv.rehash()
		} else {
			lv.news[n-1].hash = maphash.Bytes(pendSeed, p.key)
			lv.index(n - 1)
		}
	}
}

// rehash sizes the table for news (at least 4 slots per write, so it
// grows once every time news doubles), hashes every key and indexes it.
func (lv *logView) rehash() {
	size := 64
	for size < 4*len(lv.news) {
		size *= 2
	}
	if len(lv.pend) < size {
		lv.pend = make([]int32, size)
	} else {
		clear(lv.pend)
	}
	for i := range lv.news {
		lv.news[i].hash = maphash.Bytes(pendSeed, lv.news[i].key)
		lv.index(i)
	}
}

// index adds news[i] (its hash set) to the table, which has room.
func (lv *logView) index(i int) {
	mask := uint64(len(lv.pend) - 1)
	j := lv.news[i].hash & mask
	for lv.pend[j] != 0 {
		j = (j + 1) & mask
	}
	lv.pend[j] = int32(i + 1)
}

// gather sorts the group's writes and gathers the runs of the new
// version's overlay: lv's overlay with them laid over it (ovrun.go: only
// the runs the group writes into are copied). It returns how many keys
// the new overlay holds, so the leader can decide to fold instead.
func (lv *logView) gather() int {
	if len(lv.news) > pendScan {
		sorted, refs := sortNewsByRef(lv.news, lv.sorted, lv.refs)
		lv.news, lv.sorted, lv.refs = sorted, lv.news, refs
	} else {
		sortNews(lv.news)
	}
	b := &lv.rb
	b.reset()
	b.mergeRuns(lv.d, lv.ov, lv.news)
	return b.n
}

// merged fills ov, the new version's overlay, with the runs gather
// gathered and their filter. Overlays merged one over another, from the
// first after a fold to the last before the next, share one filter,
// sized for foldAt keys: each adds its keys to it, so an older version
// reading the filter meets the keys of newer ones, which costs it at
// most a search (a false positive), never a wrong answer; and a commit
// copies no filter. An overlay not merged by this leader (Open's,
// compaction's) gets a new filter, with its keys.
func (lv *logView) merged(ov *overlay, foldAt int) {
	d, old := lv.d, lv.ov
	lv.rb.finish(ov, &lv.arena, old)
	if old == nil || len(old.filter) == 0 || len(lv.filter) != len(old.filter) || &old.filter[0] != &lv.filter[0] {
		lv.filter = make([]uint64, filterWords(max(foldAt, ov.n)))
		old.all(func(e uint64) { filterAdd(lv.filter, logKey(d, e)) })
	}
	for i := range lv.news {
		filterAdd(lv.filter, lv.news[i].key)
	}
	ov.filter = lv.filter
}

// validLog reports whether every revision tx relies on still holds
// against lv.
func (tx *txn) validLog(lv *logView) bool {
	for _, c := range tx.checks {
		if lv.rev(tx.key(c.k0, c.k1)) != c.rev {
			return false
		}
	}
	return true
}
