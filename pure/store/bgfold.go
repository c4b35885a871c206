package store

import "runtime"

// Background folds. A fold (logrec.go) applies an overlay of about
// FoldEntries keys to the tree and writes every leaf and path they
// changed; done by the commit leader it held wmu for about 0.7 ms at 64
// writers (probe 931), with nothing written or synced meanwhile. In a file
// with a syncer, the group that passes the fold bounds instead starts a
// goroutine that folds its version's overlay into a tree in memory while
// the following groups go on appending log records over the old chain.
// Its nodes are laid out at foldSentinel, an offset no file reaches, so
// that they can be moved to wherever the file ends when they are written:
// relocate shifts every offset at or above the base they were laid out at,
// and offsets below it name records already in the file.
//
// The first group whose leader finds the fold done writes the nodes at the
// end of the file, then its log record laid over the new tree: first the
// overlay entries written since the fold's cut (the carried entries,
// copied), then its own; its head names that record, so the new version's
// overlay holds only entries newer than the folded tree. The nodes, the
// record and the head go out in one group and are covered by one head's
// data checksum, so a crash leaves them whole or as a torn tail, as any
// group. Nothing else changes: the group's transactions are validated
// against the tree and carried entries, which answer exactly as the old
// chain did.
//
// A fold whose tree is no longer the tip's (an inline fold or a
// compaction came between) is dropped. While one runs, the overlay may
// pass the fold bounds up to bgFoldSlack times before a group folds
// inline after all.

// foldSentinel is the offset a background fold's nodes are laid out at.
const foldSentinel = 1 << 62

// bgFoldYield is how many entries a background fold applies between
// yields of its P: on two cores a fold running through its 0.3 ms of
// applying kept the syncer, back from fdatasync, waiting for a P.
const bgFoldYield = 32

// bgFoldSlack is how far past the fold bounds the overlay may grow while a
// background fold runs.
const bgFoldSlack = 4

// bgFold is a fold running, or done, in its own goroutine. Its fields
// after done are written by the goroutine before it closes done.
type bgFold struct {
	src   uint64   // the tree folded over (treeRoot of the version's root)
	cut   uint64   // where the folded version's records end: overlay entries at or above are newer
	f     File     // the file it belongs to
	m     *mapping // a reference the goroutine holds while it reads
	sc    *scratch
	done  chan struct{}
	nodes []byte // the new nodes, laid out at base
	base  uint64
	root  uint64 // the new tree's root: at or above base if written here
	count uint64 // keys in the new tree
}

// bgFoldOK reports whether this store folds in the background: a file
// with a syncer whose heads count their tree's keys (version 4).
func (s *Store) bgFoldOK() bool {
	return s.g.kick != nil && !s.countAll && !s.opts.noBgFold
}

// startBgFold starts folding ov, the overlay of the version whose records
// end at cut, into its tree. The caller holds wmu.
func (s *Store) startBgFold(ov *overlay, cut uint64) *bgFold {
	sc := s.bgScratch
	s.bgScratch = nil
	if sc == nil {
		sc = new(scratch)
	}
	s.m.acquire()
	b := &bgFold{src: ov.tree, cut: cut, f: s.f, m: s.m, sc: sc, done: make(chan struct{}), base: foldSentinel}
	if h := s.testHookBgFold; h != nil {
		go func() {
			h()
			b.run(ov, s.nodeSize)
		}()
	} else {
		go b.run(ov, s.nodeSize)
	}
	return b
}

// run applies the overlay's entries to the tree and spills the edited
// nodes, children before parents, at foldSentinel.
func (b *bgFold) run(ov *overlay, nodeSize int) {
	defer close(b.done)
	defer b.m.release()
	d := b.m.data
	sc := b.sc
	t := &sc.t
	*t = wtree{d: d, rootOff: b.src, count: ov.treeCount, nodes: &sc.nodes}
	for i, e := range ov.ents {
		if i%bgFoldYield == bgFoldYield-1 {
			runtime.Gosched() // let the syncer and the leader have this P
		}
		if k := logKey(d, e); logDeleted(d, e) {
			t.del(k)
		} else {
			t.put(k, leafVal(d, e), leafRev(d, e))
		}
	}
	sp := spiller{t: t, base: foldSentinel, nodeSize: nodeSize, sc: sc}
	b.root = sp.spillRoot()
	b.nodes, b.count = sp.buf, t.count
	*t = wtree{}
	sc.reset()
}

// ready reports whether the fold is done, without waiting.
func (b *bgFold) ready() bool {
	select {
	case <-b.done:
		return true
	default:
		return false
	}
}

// relocate moves the fold's nodes from base to to: every child offset and
// out-of-line value offset at or above base (a node or value of the fold)
// is shifted; those below name records already in the file. to must be
// at least every offset of the file's records (its end), so a second
// relocation tells the fold's offsets apart the same way.
func (b *bgFold) relocate(to uint64) {
	if to == b.base {
		return
	}
	move := func(p []byte) {
		if off := le.Uint64(p); off >= b.base {
			le.PutUint64(p, off-b.base+to)
		}
	}
	n := b.nodes
	for pos := 0; pos < len(n); {
		kind, count, size := n[pos], int(le.Uint16(n[pos+2:])), int(le.Uint32(n[pos+4:]))
		for i := 0; i < count && kind != kindValue; i++ {
			e := pos + int(le.Uint32(n[pos+recHdrSize+4*i:]))
			if kind == kindBranch {
				move(n[e:])
			} else if n[e+14]&leafFlagOutline != 0 {
				move(n[e+16:])
			}
		}
		pos += size
	}
	if b.root >= b.base {
		b.root = b.root - b.base + to
	}
	b.base = to
}

// dropBgFoldLocked forgets the background fold, running or done; its
// goroutine ends on its own and keeps its scratch. The caller holds wmu.
func (s *Store) dropBgFoldLocked() {
	if b := s.bg; b != nil && b.ready() {
		s.bgScratch = b.sc
	}
	s.bg = nil
}
