package store

import (
	"bytes"
	"slices"
	"sync/atomic"
)

// Log records. In a version 3 file a group's commit appends one log
// record (kind 'D') holding its puts and deletes instead of rewriting the
// leaves and paths they change, and its head names that record as the
// root. A log record names the root it is laid over (base): the previous
// log record, or the tree (0: the empty tree). So a head's root is either
// a tree node or the newest record of a chain of log records over a tree.
// Once the records over a tree hold enough keys (Options.FoldEntries) or
// bytes (foldBytes), the group that passes the bound folds them: it applies
// them, with its own transactions, to the tree and writes the changed
// leaves and paths as a tree commit does, and its head names the new tree.
// A leaf and its path are then copied once per fold rather than once per
// group.
//
// Layout:
//
//	header  kind 'D', flags 0, count 0, len u32 (the record's length)
//	base    u64: the root the record is laid over
//	entries back to back until len, each
//	        rev u64, valLen u32, keyLen u16, flags u8, pad u8, key, value
//
// An entry is laid out as an inline leaf entry (node.go), so leafKey,
// leafVal and leafRev read it in place and a value read from it is lent
// from the mapping like any other. flags is 0 for a put and logFlagDelete
// for a delete (valLen 0). A record's count is not used: a group may hold
// more entries than a u16 counts.
//
// Readers see the records through an overlay (one per version, never
// changed once published): the offsets of the newest entry of each key in
// the chain, sorted by key. A read looks the key up in the overlay first
// and in the tree below when the overlay does not have it. Recovery
// rebuilds the overlay of the recovered head by walking its chain.

const (
	logHdrSize    = recHdrSize + 8 // record header, base u64
	logFlagDelete = 2

	// DefaultFoldEntries is Options.FoldEntries when it is zero, for a
	// store on a file: how many keys the log records over the tree may
	// hold before a commit folds them into it.
	DefaultFoldEntries = 1024
	// DefaultFoldEntriesRAM is Options.FoldEntries when it is zero, in
	// RAM mode. With overlays in shared runs (ovrun.go), a commit of a few
	// keys copies the runs they fall in and the index, so a larger overlay
	// costs it little, and folds, which copy every leaf the overlay's keys
	// fall in, come a quarter as often: in-process TPC-C counted 8.4 %
	// fewer instructions per transaction (experiment 086). On a file, a
	// group of 64 writers' keys falls in nearly every run, so it copies a
	// larger overlay almost whole, and both runs of experiment 086 had 64
	// writers slower against pebble with 4,096 than with 1,024.
	DefaultFoldEntriesRAM = 4096
	// foldBytes bounds the bytes of log records over a tree (and so what
	// Open replays and what a compaction copies as one record).
	foldBytes = 4 << 20
	// maxLogRecord is the longest log record a group writes; a group with
	// more bytes writes a chain of records.
	maxLogRecord = 1 << 30
)

// overlay is the log records of a version laid over its tree, as the
// newest entry of each key. It is never modified once built, but for
// the cached key count.
type overlay struct {
	tree      uint64 // the tree's root offset (0: empty)
	treeCount uint64 // keys in the tree alone
	// The file offsets of the newest entry of each key, sorted by key, n
	// in all, in runs shared with other versions' overlays (ovrun.go):
	// spans name them in arena (whose generation is arenaGen: 0 for an
	// arena of its own), firsts and fheads index them by their first
	// entries and heads.
	arena                 []uint64
	arenaGen              uint64
	spans, firsts, fheads []uint64
	n                     int
	bytes                 uint64 // bytes of the log records in the chain
	// filter is a Bloom filter of the keys of ents (two bits per key, of
	// a power of two), so that a read of a key the overlay does not hold
	// usually skips the search; it holds no false negatives.
	filter []uint64
	// keys is the number of keys of the version (tree and records) plus
	// one, 0 until counted: a version 3 head carries it, a version 4 head
	// does not (keyCount counts it when first asked; the only field set
	// after the overlay is published).
	keys atomic.Uint64
}

// filterHash is the overlay filters' hash of key. It is fixed, not seeded
// per process (as hash/maphash is): a seeded hash made the filter's false
// positives, and so a read's instruction count, differ from process to
// process, and the workbench counts reads to the instruction. A filter is
// never stored and a false positive only costs a search, so a key set
// chosen against the hash slows reads, never changes them.
func filterHash(key []byte) uint64 {
	h := uint64(len(key)) * 0x9e3779b97f4a7c15
	for len(key) >= 8 {
		h = (h ^ le.Uint64(key)) * 0xff51afd7ed558ccd
		h ^= h >> 29
		key = key[8:]
	}
	var t uint64
	for i, c := range key {
		t |= uint64(c) << (8 * i)
	}
	h = (h ^ t) * 0xc4ceb9fe1a85ec53
	h ^= h >> 32
	h *= 0xff51afd7ed558ccd
	return h ^ h>>29
}

// filterWords returns the size, in words, of the filter of an overlay of
// up to n keys: about 16 bits per key, a power of two, between 16 and
// 4,096 words.
func filterWords(n int) int {
	w := 16
	for w*64 < 16*n && w < 4096 {
		w *= 2
	}
	return w
}

// filterAdd sets key's two bits in f. Bits are set and read atomically:
// the leader adds to a filter that readers of earlier versions read
// (logView.merged).
func filterAdd(f []uint64, key []byte) {
	h := filterHash(key)
	m := uint64(len(f))*64 - 1
	a, b := h&m, (h>>32)&m
	atomic.OrUint64(&f[a/64], 1<<(a%64))
	atomic.OrUint64(&f[b/64], 1<<(b%64))
}

// mayHave reports whether key may be in the overlay: false only if it is
// not.
func (ov *overlay) mayHave(key []byte) bool {
	f := ov.filter // never empty: filterWords gives at least 16 words
	h := filterHash(key)
	m := uint64(len(f))*64 - 1
	a, b := h&m, (h>>32)&m
	return atomic.LoadUint64(&f[a/64])&(1<<(a%64)) != 0 && atomic.LoadUint64(&f[b/64])&(1<<(b%64)) != 0
}

func logKey(d []byte, e uint64) []byte {
	kl := uint64(le.Uint16(d[e+12:]))
	return d[e+leafEntFixed : e+leafEntFixed+kl : e+leafEntFixed+kl]
}

func logDeleted(d []byte, e uint64) bool { return d[e+14]&logFlagDelete != 0 }

func logEntLen(d []byte, e uint64) uint64 {
	return leafEntFixed + uint64(le.Uint16(d[e+12:])) + uint64(le.Uint32(d[e+8:]))
}

func logBase(d []byte, r uint64) uint64 { return le.Uint64(d[r+recHdrSize:]) }

// treeRoot returns the root of the tree of a version with root and ov.
func treeRoot(root uint64, ov *overlay) uint64 {
	if ov != nil {
		return ov.tree
	}
	return root
}

// lookupVersion finds key in the version whose root is root with overlay
// ov (nil: root is a tree) and returns its entry, a leaf entry or a log
// entry (both read with leafVal and leafRev); a deleted key is absent.
func lookupVersion(d []byte, root uint64, ov *overlay, key []byte) (uint64, bool) {
	if ov != nil {
		if ov.mayHave(key) {
			return lookupOverlay(d, ov, key)
		}
		root = ov.tree
	}
	return lookup(d, root, key)
}

// lookupOverlay is lookupVersion for a key ov's filter may hold. (Apart,
// so that a read the filter answers calls only lookup.)
func lookupOverlay(d []byte, ov *overlay, key []byte) (uint64, bool) {
	if e, ok := ov.find(d, key); ok {
		if logDeleted(d, e) {
			return 0, false
		}
		return e, true
	}
	return lookup(d, ov.tree, key)
}

// appendLogEntry appends a log entry to buf.
func appendLogEntry(buf []byte, key, val []byte, rev uint64, del bool) []byte {
	start := len(buf)
	buf = grow(buf, leafEntFixed+len(key)+len(val))
	b := buf[start:]
	le.PutUint64(b, rev)
	le.PutUint32(b[8:], uint32(len(val)))
	le.PutUint16(b[12:], uint16(len(key)))
	b[14], b[15] = 0, 0
	if del {
		b[14] = logFlagDelete
	}
	copy(b[leafEntFixed:], key)
	copy(b[leafEntFixed+len(key):], val)
	return buf
}

// startLogRecord appends the header of a log record over base to buf; its
// length is set by endLogRecord.
func startLogRecord(buf []byte, base uint64) []byte {
	start := len(buf)
	buf = grow(buf, logHdrSize)
	putRecHdr(buf[start:], kindLog, 0, 0)
	le.PutUint64(buf[start+recHdrSize:], base)
	return buf
}

// endLogRecord sets the length of the log record starting at buf[start:].
func endLogRecord(buf []byte, start int) {
	le.PutUint32(buf[start+4:], uint32(len(buf)-start))
}

// logChain returns the log records from root down its chain, newest
// first, and the tree root below them. It checks that each record lies in
// d with a length that holds its header and that bases go down, so a
// damaged file cannot send it outside d or round in circles.
func logChain(d []byte, root uint64) ([]uint64, uint64, error) {
	var recs []uint64
	r := root
	for r != 0 && r < uint64(len(d)) && d[r] == kindLog {
		if uint64(len(d))-r < logHdrSize {
			return nil, 0, errorf(ErrCorrupt, "log record at %d runs past the file", r)
		}
		n := uint64(le.Uint32(d[r+4:]))
		if n < logHdrSize || n > uint64(len(d))-r {
			return nil, 0, errorf(ErrCorrupt, "log record at %d: length %d", r, n)
		}
		recs = append(recs, r)
		b := logBase(d, r)
		if b >= r {
			return nil, 0, errorf(ErrCorrupt, "log record at %d: base %d is not before it", r, b)
		}
		r = b
	}
	return recs, r, nil
}

// logEntries calls fn for each entry of the log record at r, in order,
// checking that each lies inside the record.
func logEntries(d []byte, r uint64, fn func(e uint64) error) error {
	end := r + uint64(le.Uint32(d[r+4:]))
	for e := r + logHdrSize; e < end; {
		if end-e < leafEntFixed {
			return errorf(ErrCorrupt, "log record at %d: entry at %d truncated", r, e)
		}
		n := logEntLen(d, e)
		if n > end-e {
			return errorf(ErrCorrupt, "log record at %d: entry at %d runs past the record", r, e)
		}
		if err := fn(e); err != nil {
			return err
		}
		e += n
	}
	return nil
}

// buildOverlay returns the overlay of a version whose root is root and
// which holds count keys: nil when root is a tree.
func buildOverlay(d []byte, root, count uint64) (*overlay, error) {
	recs, tree, err := logChain(d, root)
	if err != nil || len(recs) == 0 {
		return nil, err
	}
	ov := &overlay{tree: tree}
	var all []uint64
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		ov.bytes += uint64(le.Uint32(d[r+4:]))
		err := logEntries(d, r, func(e uint64) error {
			if kl := le.Uint16(d[e+12:]); kl == 0 || kl > MaxKeySize {
				return errorf(ErrCorrupt, "log record at %d: entry at %d has a key of %d bytes", r, e, kl)
			}
			all = append(all, e)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	// The newest entry of each key: a stable sort keeps the order of
	// writes among equal keys, and the last of each run wins.
	slices.SortStableFunc(all, func(a, b uint64) int { return bytes.Compare(logKey(d, a), logKey(d, b)) })
	// Entries and their heads share one allocation.
	mem := make([]uint64, 2*len(all))
	ents := mem[:0:len(all)]
	for i, e := range all {
		if i+1 < len(all) && bytes.Equal(logKey(d, e), logKey(d, all[i+1])) {
			continue
		}
		ents = append(ents, e)
	}
	ov.setRuns(ents, appendHeads(mem[len(all):len(all):2*len(all)], d, ents))
	ov.filter = make([]uint64, filterWords(len(ents)))
	for _, e := range ents {
		filterAdd(ov.filter, logKey(d, e))
	}
	if headCountsTree(fileVersion(d)) {
		ov.treeCount = count
		return ov, nil
	}
	// Version 3: the head counts the version's keys. The tree's own count
	// is that, less the keys the overlay adds, plus those it deletes.
	tc := count
	for _, e := range ents {
		inTree, err := lookupChecked(d, tree, logKey(d, e))
		if err != nil {
			return nil, err
		}
		switch del := logDeleted(d, e); {
		case !del && !inTree:
			tc--
		case del && inTree:
			tc++
		}
	}
	ov.treeCount = tc
	ov.keys.Store(count + 1)
	return ov, nil
}

// keyCount returns the number of keys of the version ov belongs to, in d:
// the tree's, plus the keys the overlay adds, less those it deletes. It
// looks each of the overlay's keys up in the tree the first time it is
// asked (at most Options.FoldEntries lookups), then remembers the answer.
func (ov *overlay) keyCount(d []byte) uint64 {
	if k := ov.keys.Load(); k != 0 {
		return k - 1
	}
	n := ov.treeCount
	ov.all(func(e uint64) {
		_, inTree := lookup(d, ov.tree, logKey(d, e))
		switch del := logDeleted(d, e); {
		case !del && !inTree:
			n++
		case del && inTree:
			n--
		}
	})
	ov.keys.Store(n + 1)
	return n
}

// versionKeys returns the number of keys of the version with head h and
// overlay ov (nil: its root is a tree) in d.
func versionKeys(d []byte, h *head, ov *overlay) uint64 {
	if ov == nil {
		return h.count
	}
	return ov.keyCount(d)
}

// rangeVersion is Range over a version: the tree below root merged with
// overlay ov (nil: root is a tree).
func rangeVersion(d []byte, root uint64, ov *overlay, from, to []byte, fn func(key, val []byte, rev uint64) bool) {
	if ov == nil {
		if root != 0 {
			rangeNode(d, root, from, to, fn)
		}
		return
	}
	var a ovPos
	if from != nil {
		a = ov.seek(d, from)
	}
	m := rangeMerge{d: d, to: to, ov: ov, r: a.r + 1}
	if a.r < len(ov.spans) {
		m.ents, _ = ov.run(a.r)
		m.ents = m.ents[a.i:]
	}
	if !m.start() {
		// Nothing of the overlay in range: the tree's scan as it is.
		if ov.tree != 0 {
			rangeNode(d, ov.tree, from, to, fn)
		}
		return
	}
	if ov.tree != 0 && !m.node(ov.tree, from, fn) {
		return
	}
	m.emitBefore(nil, fn)
}

// rangeMerge is the state of a range scan of a tree merged with overlay
// entries (ents[0], then the rest of ents and of the runs from r, up to
// the first at or past to, sorted; next is the key of ents[0]). It compares tree keys with the overlay only in leaves whose
// last key reaches next, so a scan that meets few overlay entries costs
// about what the tree's own scan does: one comparison per leaf, not per
// key. (fn is passed to its methods, not kept in it: escape analysis is
// not field-sensitive, and a kept fn would leak with the keys it is given,
// so that every Range allocated its closure.)
type rangeMerge struct {
	d    []byte
	to   []byte
	ov   *overlay
	ents []uint64 // what is left of the current run of ov
	r    int      // the next run
	next []byte   // logKey of ents[0]; nil once no entry in range is left
}

// start makes ents[0] the next entry in range, moving on to the next run
// of ov at the end of one, sets next, and reports whether there is one.
// Comparing each entry with to costs a scan one comparison per overlay
// entry it meets, where a search for to would cost a scan that meets
// none about ten.
func (m *rangeMerge) start() bool {
	for len(m.ents) == 0 {
		if m.r >= len(m.ov.spans) {
			m.next = nil
			return false
		}
		m.ents, _ = m.ov.run(m.r)
		m.r++
	}
	k := logKey(m.d, m.ents[0])
	if m.to != nil && bytes.Compare(k, m.to) >= 0 {
		m.next = nil
		return false
	}
	m.next = k
	return true
}

// node is rangeNode for the merge; it returns false once fn stopped or
// the scan reached to (ents then holds nothing more to send).
func (m *rangeMerge) node(off uint64, from []byte, fn func(key, val []byte, rev uint64) bool) bool {
	d := m.d
	n := nodeCount(d, off)
	if nodeKind(d, off) == kindBranch {
		i := 0
		if from != nil {
			i = branchSearch(d, off, from)
		}
		for ; i < n; i++ {
			e := entAt(d, off, i)
			if m.to != nil && i > 0 && bytes.Compare(branchKey(d, e), m.to) >= 0 {
				m.emitBefore(nil, fn) // the scan reached to: the rest of ents, then stop
				return false
			}
			if !m.node(branchChild(d, e), from, fn) {
				return false
			}
		}
		return true
	}
	if n == 0 {
		return true
	}
	i := 0
	if from != nil {
		i, _ = leafSearch(d, off, from)
	}
	last := leafKey(d, entAt(d, off, n-1))
	if m.next == nil || bytes.Compare(m.next, last) > 0 {
		// No overlay entry up to the leaf's last key: the tree's own scan.
		switch scanLeaf(d, off, i, n, m.to, fn) {
		case scanOn:
			return true
		case scanAtEnd:
			m.emitBefore(nil, fn) // the scan reached to: the rest of ents, then stop
		}
		return false
	}
	merge := true
	for ; i < n; i++ {
		e := entAt(d, off, i)
		k := leafKey(d, e)
		if m.to != nil && bytes.Compare(k, m.to) >= 0 {
			m.emitBefore(nil, fn) // the scan reached to: the rest of ents, then stop
			return false
		}
		if merge && bytes.Compare(m.next, k) <= 0 {
			if !m.emitBefore(k, fn) {
				return false
			}
			same := m.next != nil && bytes.Equal(m.next, k)
			if same && !m.emitOne(fn) { // the overlay's entry for k stands in for the tree's
				return false
			}
			merge = m.next != nil && bytes.Compare(m.next, last) <= 0
			if same {
				continue
			}
		}
		if !fn(k, leafVal(d, e), leafRev(d, e)) {
			return false
		}
	}
	return true
}

// emitBefore sends the overlay entries whose keys are below key (all that
// are left when key is nil); it returns false once fn stopped.
func (m *rangeMerge) emitBefore(key []byte, fn func(key, val []byte, rev uint64) bool) bool {
	for m.next != nil && (key == nil || bytes.Compare(m.next, key) < 0) {
		if !m.emitOne(fn) {
			return false
		}
	}
	return true
}

// emitOne sends the overlay entry e (unless it deletes its key) and
// moves to the next; it returns false once fn stopped.
func (m *rangeMerge) emitOne(fn func(key, val []byte, rev uint64) bool) bool {
	e, k := m.ents[0], m.next
	m.ents = m.ents[1:]
	m.start()
	if logDeleted(m.d, e) {
		return true
	}
	return fn(k, leafVal(m.d, e), leafRev(m.d, e))
}
