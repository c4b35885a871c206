package store

// scratch is memory the commit leader reuses from group to group (under
// Store.wmu), so that a small commit allocates little: the working tree,
// its edited nodes, the spiller's lists and the head's bytes.
type scratch struct {
	t       wtree
	nodes   nodeArena
	patches []patch   // a lazy branch's patches
	res     [][]entry // per depth: the entries a lazy branch's children became
	ends    [][]int   // per depth: where each child's entries end in res
	out     []entry   // the root's entries
	head    [headSize]byte
}

// nodeArena hands out the edited nodes of one group, and the lists of
// their lazy leaves' edits. reset makes them available to the next group;
// nothing may point to them after it.
type nodeArena struct {
	blocks [][]wnode
	bi, i  int // the next node: blocks[bi][i]
	// edits is the slab the lazy leaves' edit lists grow into (growEdits):
	// edits[:ei] is handed out.
	edits []patch
	ei    int
}

// growEdits returns ps (full) moved to a list of twice its capacity (at
// least 4), carved from the slab. A fold spreads a thousand keys over
// the leaves of the writers' ranges, each leaf's list doubling from 1 as
// its keys arrive: grown by append, those lists were about a fifth of the
// bytes a 64-writer commit allocated (experiment 123). The list left
// behind is dead until reset; a list outgrowing the slab's rest gets a
// new slab (the old one stays with the nodes pointing into it until
// reset).
func (a *nodeArena) growEdits(ps []patch) []patch {
	c := max(4, 2*cap(ps))
	if a.ei+c > len(a.edits) {
		a.edits, a.ei = make([]patch, max(2*len(a.edits), c, minEditSlab)), 0
	}
	out := a.edits[a.ei : a.ei+len(ps) : a.ei+c]
	a.ei += c
	copy(out, ps)
	return out
}

// minEditSlab is the first slab's size in edits (about 26 KB).
const minEditSlab = 256

func (a *nodeArena) new() *wnode {
	if a.bi == len(a.blocks) {
		a.blocks = append(a.blocks, make([]wnode, 16<<a.bi))
	}
	b := a.blocks[a.bi]
	n := &b[a.i]
	if a.i++; a.i == len(b) {
		a.bi, a.i = a.bi+1, 0
	}
	return n
}

// reset clears the nodes handed out (they point into transactions and
// mappings) and starts over.
func (a *nodeArena) reset() {
	for j := 0; j <= a.bi && j < len(a.blocks); j++ {
		if j < a.bi {
			clear(a.blocks[j])
		} else {
			clear(a.blocks[j][:a.i])
		}
	}
	a.bi, a.i = 0, 0
	if len(a.edits) > keepEntries {
		a.edits = nil // a huge fold's edits go to the collector
	} else {
		clear(a.edits[:a.ei])
	}
	a.ei = 0
	if len(a.blocks) > keepBlocks {
		a.blocks = a.blocks[:keepBlocks] // a huge group's nodes go to the collector
	}
}

// keepBlocks is how many arena blocks (16, 32, ..., 512 nodes: 1,008)
// outlive a group; keepEntries bounds the scratch lists kept. A fold of
// TPC-C's overlay (1,024 keys over 100,000 stock rows and 30,000
// customers) opens about a thousand nodes: with 4 blocks (240 nodes) it
// allocated the blocks of 256 and 512 nodes again at every fold, about
// 2.6 KB per transaction (probe 934).
const (
	keepBlocks  = 6
	keepEntries = 1 << 12
)

// depthScratch returns the result lists of a lazy branch at depth d,
// empty.
func (sc *scratch) depthScratch(d int) ([]entry, []int) {
	for len(sc.res) <= d {
		sc.res = append(sc.res, nil)
		sc.ends = append(sc.ends, nil)
	}
	return sc.res[d][:0], sc.ends[d][:0]
}

// reset drops what the last group left in the scratch lists, so it does
// not keep transactions' buffers alive. The lists are kept at the longest
// length used in the group, so only that much is cleared.
func (sc *scratch) reset() {
	sc.nodes.reset()
	for d := range sc.res {
		sc.res[d] = keep(sc.res[d])
		if cap(sc.ends[d]) > keepEntries {
			sc.ends[d] = nil
		}
	}
	sc.patches = keep(sc.patches)
	sc.out = keep(sc.out)
	sc.t = wtree{}
}

// used returns what to keep of a scratch list after a use that left it as
// s: s itself if it is a new (grown) array or longer than old, else old,
// so the list's length is the most of its array that holds anything.
func used[E any](old, s []E) []E {
	if cap(s) != cap(old) || len(s) > len(old) {
		return s
	}
	return old
}

// keep returns s cleared and emptied, or nil if it grew too large to keep.
func keep[E any](s []E) []E {
	if cap(s) > keepEntries {
		return nil
	}
	clear(s)
	return s[:0]
}

// The commit buffer (Store.buf) is kept from group to group so that steady
// writes do not allocate it again. A buffer grown past keepBufMin is kept
// only when the groups before needed at least a quarter of it: their
// peak, decaying by 1/256 per group (Store.bufPeak). Otherwise it is
// replaced by one of the peak's size: one large value after small ones (a
// seed's 1 MiB document) does not leave megabytes resident for the life
// of the process. The slow decay is for outsized groups that recur: among
// pure-serve's durable PUTs a fold makes a group of 1.6 MiB every 80 or so
// groups of 100-300 KiB; dropping the buffer after each made them regrow
// it by doubling, 110-290 MB allocated in 4 s against 12 MB.
const (
	keepBufMin = 256 << 10
	keepBufMax = 16 << 20
)

// keepBuf returns the commit buffer for the next group, given the last
// group's buf and the groups' peak before it: buf emptied, or a new buffer
// of the peak's size.
func keepBuf(buf []byte, peak int) []byte {
	if c := cap(buf); c > keepBufMax || (c > keepBufMin && peak < c/4) {
		return make([]byte, 0, max(peak, 4<<10))
	}
	return buf[:0]
}

// nextPeak is the groups' peak after a group whose buffer reached n bytes.
func nextPeak(peak, n int) int {
	return max(n, peak-peak/256)
}
