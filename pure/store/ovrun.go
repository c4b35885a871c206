package store

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"sync/atomic"
)

// Overlay runs. An overlay's entries, sorted by key, are cut into runs of
// at most runMax entries, each with its heads (logheads.go), and the
// overlay indexes the runs by their first entries. Runs are never changed
// once published, so a group's new overlay shares every run the group
// does not write into with the overlay before it: a commit copies the
// runs its keys fall in and the index, not every entry of the overlay
// (before runs, each commit copied the whole overlay, up to
// Options.FoldEntries entries and heads, 16 KiB at 1,024 keys, in
// memory it allocated anew).
//
// A search finds the run in the index, then the entry in the run: about
// as many probes as one search over all entries.

const (
	// runMax is the most entries a run holds; a run a group writes past
	// it is cut into runs of about runMax/2.
	runMax = 64
	// runHalf is the size of the runs a cut makes, and of the runs an
	// overlay built from scratch is cut into.
	runHalf = runMax / 2
	// fewRuns is the most runs find walks one by one instead of
	// searching their index (pure-serve's documents, a few hundred keys
	// at most between folds, make a few runs).
	fewRuns = 8
	// minArena is the fewest words an arena is allocated with.
	minArena = 1 << 13
)

// The runs live in an arena, a []uint64 the leader only appends to: each
// run's entries, then their heads, and after a group's new runs its
// version's index (firsts, fheads, spans: a span names a run by where it
// starts in the arena and its length). So an overlay holds no pointer per
// run, and a commit allocates nothing for its overlay while the arena has
// room. The leader appends only past the newest overlay's index, where no
// published version reads, and a version is published (an atomic store)
// after its words were written, so readers never race the leader. When
// the arena is full, the leader allocates one 16 times what the new
// overlay needs and copies the live runs there (earlier versions keep the
// old one).

// ovPos is a position in an overlay: entry i of run r.
type ovPos struct{ r, i int }

// run returns the entries and heads of ov's run r.
func (ov *overlay) run(r int) (ents, heads []uint64) {
	at, n := spanOf(ov.spans[r])
	w := ov.arena[at : at+2*n]
	return w[:n], w[n:]
}

// spanOf returns where a run named by span s starts in its arena, and its
// length.
func spanOf(s uint64) (at, n int) { return int(s >> 8), int(s & 0xff) }

// runOf returns the run key (whose head is h) falls in: the last whose
// first key is <= key, or run 0 for a key below them all; and whether key
// is that run's first.
func (ov *overlay) runOf(d []byte, key []byte, h uint64) (int, bool) {
	j, eq := searchEntsHead(d, ov.firsts, ov.fheads, key, h)
	if eq {
		return j, true
	}
	if j > 0 {
		j--
	}
	return j, false
}

// find returns the log entry of key in ov, if it holds one.
func (ov *overlay) find(d []byte, key []byte) (uint64, bool) {
	r := 0
	h := keyHead(key) // once, for both searches
	switch n := len(ov.spans); {
	case n == 0:
		return 0, false
	case n == 1: // a small overlay: the run's own search says
	case n <= fewRuns && ov.fheads[0] < h:
		// A few runs: walk their first heads; a first head equal to h
		// needs the keys (runOf).
		fh := ov.fheads[:n]
		for r+1 < n && fh[r+1] < h {
			r++
		}
		if r+1 == n || fh[r+1] > h {
			break
		}
		fallthrough
	default:
		var first bool
		if r, first = ov.runOf(d, key, h); first {
			return ov.firsts[r], true
		}
	}
	ents, heads := ov.run(r)
	if i, ok := searchEntsHead(d, ents, heads, key, h); ok {
		return ents[i], true
	}
	return 0, false
}

// seek returns the position of the first entry whose key is >= key
// (ovPos{len(spans), 0} if there is none).
func (ov *overlay) seek(d []byte, key []byte) ovPos {
	r := 0
	h := keyHead(key)
	switch len(ov.spans) {
	case 0:
		return ovPos{}
	case 1: // a small overlay: the run's own search says
	default:
		var first bool
		if r, first = ov.runOf(d, key, h); first {
			return ovPos{r, 0}
		}
	}
	ents, heads := ov.run(r)
	i, _ := searchEntsHead(d, ents, heads, key, h)
	if i == len(ents) {
		return ovPos{r + 1, 0}
	}
	return ovPos{r, i}
}

// all calls fn for each entry of ov (nil: none), in key order.
func (ov *overlay) all(fn func(e uint64)) {
	if ov == nil {
		return
	}
	for r := range ov.spans {
		ents, _ := ov.run(r)
		for _, e := range ents {
			fn(e)
		}
	}
}

// setRuns cuts ents (sorted, with their heads) into runs of about runHalf
// in an arena of their own, and indexes them (Open's overlays).
func (ov *overlay) setRuns(ents, heads []uint64) {
	var b runBuilder
	var a runArena
	b.add(ents, heads)
	b.n = len(ents)
	b.finish(ov, &a, nil)
}

// runArena is the arena the leader appends runs to, and its generation
// (unique in the process: an overlay whose arenaGen is gen has its runs
// in words).
type runArena struct {
	words []uint64
	gen   uint64
}

// arenaGens numbers arenas.
var arenaGens atomic.Uint64

// runBuilder gathers the runs of a new overlay: runs of the old overlay,
// shared, and new runs in its own buffer; finish lays the new ones into
// an arena and indexes them all. The leader keeps one (logView) and
// reuses its memory from group to group.
type runBuilder struct {
	refs  []runRef
	fresh []uint64 // the new runs' entries and heads
	n     int      // entries in all
	runs  int      // runs in all
	te    []uint64 // addNews's entries and heads of one merged run
	th    []uint64
	idx   []uint64 // finish's index, before it goes into the arena
}

// runRef is runs of the new overlay: a span of fresh (old false), or n
// runs of the old overlay from its run at (old true).
type runRef struct {
	at, n int
	old   bool
}

func (b *runBuilder) reset() {
	b.refs, b.fresh, b.n, b.runs = b.refs[:0], b.fresh[:0], 0, 0
	if cap(b.fresh) > 4*keepEntries {
		b.fresh, b.te, b.th, b.idx = nil, nil, nil, nil // a huge group's runs go to the collector
	}
}

// share adds runs r to r2 (exclusive) of ov, the old overlay (b.n
// counts their entries already: mergeRuns starts from ov.n).
func (b *runBuilder) share(ov *overlay, r, r2 int) {
	if r2 <= r {
		return
	}
	b.refs = append(b.refs, runRef{at: r, n: r2 - r, old: true})
	b.runs += r2 - r
}

// add adds ents (sorted, with their heads, above the runs before), cut
// into runs of about runHalf if they are more than runMax. The caller
// counts them in b.n.
func (b *runBuilder) add(ents, heads []uint64) {
	n := len(ents)
	if n == 0 {
		return // no run is empty (a log record written by hand may hold no entry)
	}
	k := 1
	if n > runMax {
		k = (n + runHalf - 1) / runHalf // runs of n/k entries, the first n%k one more
	}
	for i, at := 0, 0; i < k; i++ {
		m := n / k
		if i < n%k {
			m++
		}
		b.refs = append(b.refs, runRef{at: len(b.fresh), n: m})
		b.fresh = append(b.fresh, ents[at:at+m]...)
		b.fresh = append(b.fresh, heads[at:at+m]...)
		at += m
	}
	b.runs += k
}

// finish sets ov's runs (arena, spans, firsts, fheads, n) to those
// gathered: the new runs and then the index appended to a's words, the
// old ones (of old) kept where they are if old's arena is a's, else
// copied there too. When a has no room, it gets a new arena of 16 times
// what the overlay needs (at least minArena words) and every run is
// copied there; the arena is the only memory a commit's overlay
// allocates, once every few hundred commits at most.
func (b *runBuilder) finish(ov *overlay, a *runArena, old *overlay) {
	shared := old != nil && a.gen != 0 && old.arenaGen == a.gen
	k := b.runs
	need := len(b.fresh) + 3*k
	if !shared && old != nil {
		need += 2 * old.n // at most: the old runs this overlay keeps
	}
	if len(a.words)+need > cap(a.words) {
		// A new arena: the old runs move there too.
		if old != nil {
			need += 2 * old.n
		}
		a.words = make([]uint64, 0, max(minArena, 16*need))
		a.gen = arenaGens.Add(1)
		shared = false
	}
	if cap(b.idx) < 3*k {
		b.idx = make([]uint64, 3*k)
	}
	firsts, fheads, spans := b.idx[:0:k], b.idx[k:k:2*k], b.idx[2*k:2*k:3*k]
	arena := a.words
	for _, f := range b.refs {
		switch {
		case f.old && shared:
			r, r2 := f.at, f.at+f.n
			firsts = append(firsts, old.firsts[r:r2]...)
			fheads = append(fheads, old.fheads[r:r2]...)
			spans = append(spans, old.spans[r:r2]...)
		case f.old:
			for r := f.at; r < f.at+f.n; r++ {
				at, m := spanOf(old.spans[r])
				spans = append(spans, uint64(len(arena))<<8|uint64(m))
				firsts = append(firsts, old.arena[at])
				fheads = append(fheads, old.arena[at+m])
				arena = append(arena, old.arena[at:at+2*m]...)
			}
		default:
			at, m := f.at, f.n
			spans = append(spans, uint64(len(arena))<<8|uint64(m))
			firsts = append(firsts, b.fresh[at])
			fheads = append(fheads, b.fresh[at+m])
			arena = append(arena, b.fresh[at:at+2*m]...)
		}
	}
	p := len(arena)
	arena = append(arena, b.idx[:3*k]...)
	a.words = arena
	ov.firsts, ov.fheads, ov.spans = arena[p:p+k:p+k], arena[p+k:p+2*k:p+2*k], arena[p+2*k:p+3*k:p+3*k]
	ov.arena, ov.arenaGen, ov.n = arena[:p:p], a.gen, b.n
}

// mergeRuns gathers in b the runs of ov (nil: empty) with news (sorted by
// head and key, one per key) laid over them. A run no news falls in is
// shared; one that some fall in is replaced by a merged copy, cut if it
// grew past runMax.
func (b *runBuilder) mergeRuns(d []byte, ov *overlay, news []pending) {
	if ov == nil || len(ov.spans) == 0 {
		b.addNews(d, nil, nil, news)
		return
	}
	b.n = ov.n
	r := 0
	for len(news) > 0 {
		// The run the next news falls in, and the news that fall in it:
		// those below the next run's first key.
		r2, _ := ov.runOf(d, news[0].key, news[0].head)
		b.share(ov, r, r2)
		r = r2
		k := len(news)
		if r+1 < len(ov.spans) {
			k = 1
			for k < len(news) && belowEnt(d, &news[k], ov.fheads[r+1], ov.firsts[r+1]) {
				k++
			}
		}
		ents, heads := ov.run(r)
		b.addNews(d, ents, heads, news[:k])
		news = news[k:]
		r++
	}
	b.share(ov, r, len(ov.spans))
}

// belowEnt reports whether p's key is below the key of the log entry e,
// whose head is h.
func belowEnt(d []byte, p *pending, h, e uint64) bool {
	if p.head != h {
		return p.head < h
	}
	return cmpSameHead(d, e, p.key) > 0
}

// addNews adds the run of the entries ents (with heads) with news laid
// over them: new keys inserted, keys written again replaced.
func (b *runBuilder) addNews(d []byte, ents, heads []uint64, news []pending) {
	te, th := b.te[:0], b.th[:0]
	for i := range news {
		p := &news[i]
		j, eq := searchEntsHead(d, ents, heads, p.key, p.head)
		te, th = append(te, ents[:j]...), append(th, heads[:j]...)
		if eq {
			j++
		} else {
			b.n++
		}
		te, th = append(te, p.off), append(th, p.head)
		ents, heads = ents[j:], heads[j:]
	}
	te, th = append(te, ents...), append(th, heads...)
	b.add(te, th)
	b.te, b.th = te, th
}

// sortNews sorts a group's pending writes as overlay entries are: by head,
// then by key, in place (a small group's).
func sortNews(news []pending) {
	slices.SortFunc(news, func(a, b pending) int {
		if a.head != b.head {
			return cmp.Compare(a.head, b.head)
		}
		return bytes.Compare(a.key, b.key)
	})
}

// newsRef is a pending write's place in a sort: its key's head and its
// index in news.
type newsRef struct {
	head uint64
	i    int
}

// sortNewsByRef sorts news as sortNews does, for a larger group: it sorts
// refs (16 bytes each) and then moves each pending write once, into to,
// rather than swapping the 72-byte writes during the sort (at 64 writers,
// in arrival order, 0.9 against 1.4 us for 30 writes; experiment 112). It
// returns the sorted writes (in to's memory) and refs, for reuse.
func sortNewsByRef(news, to []pending, refs []newsRef) ([]pending, []newsRef) {
	refs = refs[:0]
	for i := range news {
		refs = append(refs, newsRef{news[i].head, i})
	}
	slices.SortFunc(refs, func(a, b newsRef) int {
		if a.head != b.head {
			return cmp.Compare(a.head, b.head)
		}
		return bytes.Compare(news[a.i].key, news[b.i].key)
	})
	to = to[:0]
	for _, r := range refs {
		to = append(to, news[r.i])
	}
	return to, refs
}

// checkRuns verifies ov's runs and index in d: each run non-empty, at
// most runMax entries and inside the arena, one head per entry, each its
// key's, keys strictly ascending across runs, the index naming each run's
// first entry, n the entries' number. It returns a description of the
// first thing wrong (a bug in the store), or nil.
func (ov *overlay) checkRuns(d []byte) error {
	k := len(ov.spans)
	if len(ov.firsts) != k || len(ov.fheads) != k {
		return fmt.Errorf("overlay: index of %d and %d for %d runs", len(ov.firsts), len(ov.fheads), k)
	}
	n := 0
	var prev []byte
	for r := range k {
		at, m := spanOf(ov.spans[r])
		if m == 0 || m > runMax || at+2*m > len(ov.arena) {
			return fmt.Errorf("overlay: run %d of %d entries at %d, arena of %d words", r, m, at, len(ov.arena))
		}
		ents, heads := ov.run(r)
		if ov.firsts[r] != ents[0] || ov.fheads[r] != heads[0] {
			return fmt.Errorf("overlay: index of run %d does not name its first entry", r)
		}
		for i, e := range ents {
			key := logKey(d, e)
			if heads[i] != keyHead(key) {
				return fmt.Errorf("overlay: run %d entry %d (%q) has head %#x, want %#x", r, i, key, heads[i], keyHead(key))
			}
			if prev != nil && bytes.Compare(prev, key) >= 0 {
				return fmt.Errorf("overlay: run %d entry %d (%q) not above %q", r, i, key, prev)
			}
			prev = key
		}
		n += m
	}
	if n != ov.n {
		return fmt.Errorf("overlay: %d entries in runs, n says %d", n, ov.n)
	}
	return nil
}
