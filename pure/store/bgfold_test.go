package store

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestBgFold_RelocateMatchesSpillInPlace folds one overlay twice: spilled
// at the file's end, and spilled at foldSentinel then relocated there. The
// bytes and the root must be the same, with values out of line (value
// records the leaves point to), deletes, and a tree of several levels.
func TestBgFold_RelocateMatchesSpillInPlace(t *testing.T) {
	s := mustOpen(t, tempPath(t), &Options{FoldEntries: 1000, nodeSize: 256, noBgFold: true})
	defer s.Close()
	for i := range 1500 {
		put(t, s, key(i), fmt.Sprint("v", i))
	}
	big := strings.Repeat("L", 3000)
	tx, _ := s.Begin()
	for i := 0; i < 1500; i += 7 {
		switch {
		case i%3 == 0:
			tx.Delete([]byte(key(i)), Any)
		case i%3 == 1:
			tx.Put([]byte(key(i)), []byte(big), Any)
		default:
			tx.Put([]byte(key(i+20000)), []byte("new"), Any)
		}
	}
	if _, err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	ov := s.ov
	if ov == nil || len(ov.ents) < 100 {
		t.Fatal("no overlay to fold")
	}
	fold := func(base uint64) ([]byte, uint64, uint64) {
		sc := new(scratch)
		t := &sc.t
		d := s.m.data
		*t = wtree{d: d, rootOff: ov.tree, count: ov.treeCount, nodes: &sc.nodes}
		for _, e := range ov.ents {
			if k := logKey(d, e); logDeleted(d, e) {
				t.del(k)
			} else {
				t.put(k, leafVal(d, e), leafRev(d, e))
			}
		}
		sp := spiller{t: t, base: base, nodeSize: s.nodeSize, sc: sc}
		root := sp.spillRoot()
		return sp.buf, root, t.count
	}
	want, wantRoot, wantCount := fold(s.end)
	nodes, root, count := fold(foldSentinel)
	b := &bgFold{nodes: nodes, root: root, base: foldSentinel}
	b.relocate(s.end)
	if !bytes.Equal(b.nodes, want) || b.root != wantRoot || count != wantCount {
		t.Fatalf("relocated fold differs: %d bytes root %d, want %d bytes root %d", len(b.nodes), b.root, len(want), wantRoot)
	}
	if !bytes.Contains(want, []byte(big)) {
		t.Fatal("no value record in the fold: out-of-line values untested")
	}
	// A second relocation (the group that wrote it failed, the next one
	// writes it further on) moves it the same way.
	b.relocate(s.end + 4096)
	again, _, _ := fold(s.end + 4096)
	if !bytes.Equal(b.nodes, again) {
		t.Fatal("second relocation differs from a spill there")
	}
}

// TestBgFold_CommitsGoOnWhileFolding holds a background fold: commits go
// on as log records past FoldEntries (no inline fold) until bgFoldSlack
// times it; once the fold is let go, the next commit writes its nodes and
// the overlay shrinks to the entries written since; readers, Check and a
// strict reopen see every commit throughout.
func TestBgFold_CommitsGoOnWhileFolding(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, &Options{FoldEntries: 10, nodeSize: 256, Strict: true})
	model := map[string]string{}
	for i := range 300 {
		k, v := key(i), fmt.Sprint("v", i)
		put(t, s, k, v)
		model[k] = v
	}
	started, hold := make(chan struct{}, 1), make(chan struct{})
	s.wmu.Lock()
	s.testHookBgFold = func() {
		started <- struct{}{}
		<-hold
	}
	s.wmu.Unlock()
	for i := 0; ; i++ {
		k := key(1000 + i)
		put(t, s, k, "x")
		model[k] = "x"
		select {
		case <-started:
		default:
			continue
		}
		break
	}
	// The fold is held: the next commits are log records over the old
	// chain, past FoldEntries.
	for i := range 25 {
		k := key(2000 + i)
		put(t, s, k, "held")
		model[k] = "held"
	}
	held := 0
	if ov := s.cur.Load().ov; ov != nil {
		held = len(ov.ents)
	}
	if held <= 10+25 {
		t.Fatalf("overlay of %d keys while the fold is held, want more than FoldEntries and the commits since", held)
	}
	if got := contents(t, s); !sameModel(got, model) {
		t.Fatal("contents differ while the fold is held")
	}
	s.wmu.Lock()
	b := s.bg
	s.wmu.Unlock()
	close(hold)
	select {
	case <-b.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the background fold did not finish")
	}
	put(t, s, key(3000), "after")
	model[key(3000)] = "after"
	s.wmu.Lock()
	integrated := s.bg != b
	s.wmu.Unlock()
	if !integrated {
		t.Fatal("the commit after the fold did not write it")
	}
	if ov := s.cur.Load().ov; ov == nil || len(ov.ents) < 25 || len(ov.ents) > held-10 {
		t.Fatalf("overlay of %v keys after the fold was written, %d before: want the 25 commits since the fold began and the last", ov, held)
	}
	if got := contents(t, s); !sameModel(got, model) {
		t.Fatal("contents differ after the fold was written")
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	if got := contents(t, s); !sameModel(got, model) {
		t.Fatal("contents differ after reopen")
	}
}
