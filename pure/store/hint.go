package store

import "bytes"

// Tree hints: whether each key a transaction writes is in the tree below
// the log records, looked up by the committing goroutine before it joins
// the commit queue, so that the leader need not.
//
// The head of every version carries its exact key count, so the leader
// must know, for each key a group writes, whether the key existed. Its
// own pending writes and the tip's overlay answer that in memory; a key
// found in neither (a fresh key, or one untouched since the last fold)
// needed a descent of the tree below, whose nodes are mostly cold: 14 %
// of the samples at 64 writers in experiment 044, all on the leader,
// which is the one goroutine every commit waits for. A committer instead
// looks its keys up in the tree of its own snapshot, in parallel with the
// leader and the other committers, and the leader uses the answer when
// the tip's tree is that same tree. Trees are never modified: a fold
// writes a new tree at a new offset, so the tree root's offset, in the
// same file (mapping.gen), names the same tree; otherwise (a fold or a
// compaction since the snapshot was taken) the leader looks the key up
// itself, as before.
//
// A write whose key the transaction also relied on (Tx.Get, or an
// expected revision) needs no hint: the leader has just validated that
// revision against its view, so the key existed exactly if it is not 0.

// treeHint is what a transaction's hints were looked up in.
type treeHint struct {
	root uint64 // the tree's root offset: the snapshot's tree below its log records
	gen  uint64 // the snapshot's mapping.gen
	ok   bool   // hints were looked up
}

// hintTree looks each key the transaction writes up in its snapshot's
// tree, unless it has a check on the key, and records the tree. Only for
// stores that write log records: in a tree commit every group writes a
// new tree, so the hints would never match.
func (tx *Tx) hintTree() {
	sn := &tx.snap
	root := treeRoot(sn.h.root, sn.ov)
	tx.hint = treeHint{root: root, gen: sn.m.gen, ok: true}
	d, c, nc := sn.d, 0, len(tx.checks)
	for i := range tx.writes {
		w := &tx.writes[i]
		k := tx.buf[w.k0:w.k1:w.k1]
		if nc > 0 && checked(tx, &c, k) {
			continue
		}
		_, w.inTree = lookup(d, root, k)
	}
}

// checked reports whether the transaction has a check on key, walking
// tx.checks from *c: the writes are asked for in key order, and the
// checks are sorted by key too.
func checked(tx *Tx, c *int, key []byte) bool {
	for *c < len(tx.checks) {
		ch := tx.checks[*c]
		switch cmp := bytes.Compare(tx.key(ch.k0, ch.k1), key); {
		case cmp < 0:
			*c++
		case cmp == 0:
			return true
		default:
			return false
		}
	}
	return false
}

// existed reports whether key, which tx writes (w) as the group is
// applied, is in lv's view. A check of tx on the key answers at once: the
// leader validated its revision against lv just before, and the
// transaction's earlier writes are to other keys. Otherwise the group's
// pending writes, then the tip's overlay, then the transaction's tree
// hint if it was looked up in the tip's tree, and the tip's tree last.
// *c walks tx.checks as in checked.
func (lv *logView) existed(tx *Tx, w *txWrite, key []byte, c *int) bool {
	if len(tx.checks) > 0 && checked(tx, c, key) {
		return tx.checks[*c].rev != 0
	}
	if i, ok := lv.find(key); ok {
		return !lv.news[i].del
	}
	d := lv.d
	if ov := lv.ov; ov != nil && ov.mayHave(key) {
		if i, ok := ov.search(d, key); ok {
			return !logDeleted(d, ov.ents[i])
		}
	}
	tree := treeRoot(lv.root, lv.ov)
	if h := tx.hint; h.ok && h.root == tree && h.gen == lv.gen {
		lv.hinted++
		return w.inTree
	}
	lv.looked++
	_, ok := lookup(d, tree, key)
	return ok
}
