package store

import (
	"fmt"
	"testing"
)

// TestFold_AppendedLeavesStayFull has four writers each put keys after
// every key of its own range (as pure-kvbench's writers do), folding every
// 64 keys, with strict mode checking each version. A leaf that only got
// keys after its last one and outgrows the node size stays where it is
// and the new keys go to a new leaf (spillAppended); a leaf at a range's
// edge, whose new keys go before the next range's first keys, is cut
// there. So the leaves behind every range's edge stay full rather than
// half full as an even split leaves them; and every key reads back.
func TestFold_AppendedLeavesStayFull(t *testing.T) {
	s := mustOpen(t, tempPath(t), &Options{Strict: true, FoldEntries: 64})
	defer s.Close()
	model := map[string]string{}
	val := "0123456789abcdef"
	for n := range 300 {
		tx, _ := s.Begin()
		for w := range 4 {
			k := fmt.Sprintf("w%03d-%010d", w, n)
			tx.Put([]byte(k), []byte(val), Any)
			model[k] = val
		}
		if _, err := tx.Commit(); err != nil {
			t.Fatalf("commit %d: %v", n, err)
		}
	}
	if got := contents(t, s); !sameModel(got, model) {
		t.Fatalf("contents differ from the model: %d keys, want %d", len(got), len(model))
	}
	v := s.acquireCurrent()
	defer v.m.release()
	d := v.m.data
	// Each range's leaves past its first keys (split while the tree was
	// one leaf), in key order. Every key is put after every key of its
	// range; at a range's edge, before the next range's first keys, which
	// the first cut there leaves in a leaf of their own (spillAppended).
	leaves := make([][]uint64, 4)
	var walk func(off uint64)
	walk = func(off uint64) {
		if nodeKind(d, off) == kindLeaf {
			k := string(leafKey(d, entAt(d, off, 0)))
			for w := range leaves {
				if k >= fmt.Sprintf("w%03d-0000000050", w) && k < fmt.Sprintf("w%03d", w+1) {
					leaves[w] = append(leaves[w], nodeLen(d, off))
				}
			}
			return
		}
		for i := range nodeCount(d, off) {
			walk(branchChild(d, entAt(d, off, i)))
		}
	}
	walk(treeRoot(v.h.root, v.ov))
	// All but a range's last leaf (its edge, still growing) hold appended
	// keys: an even split would leave them about half full.
	for w, ls := range leaves {
		var full, all uint64
		for _, size := range ls[:max(len(ls)-1, 0)] {
			full += size
			all += uint64(s.nodeSize)
		}
		if len(ls) < 4 || full*4 < all*3 {
			t.Errorf("range %d: %d leaves, those behind its edge %d of %d bytes full: want at least three quarters", w, len(ls), full, all)
		}
	}
}
