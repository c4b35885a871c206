package app

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestTable_PutReadRecord: Put of a record read from the table finds its
// key's row through the record (no map lookup) only while that row is
// still its key's: after the key was deleted, or deleted and put again
// (a new row), the Put goes to the key's current row or inserts one, and
// the table holds one row per key with the last Put's values.
func TestTable_PutReadRecord(t *testing.T) {
	var log []undo
	tb := newTable("a", Table{Name: "t", Key: "k", Columns: []Field{{Name: "n", Type: Int}}}, &log)
	put := func(r Record) {
		t.Helper()
		if err := tb.put(r); err != nil {
			t.Fatal(err)
		}
	}
	nr := tb.newRecord("k1")
	nr.SetIntAt(0, 1)
	put(nr)
	want := func(n int64) {
		t.Helper()
		h := tb.get("k1")
		if h == nil || tb.rows.n != 1 || tb.byKey.n != 1 || h.vals[0].i != n || tb.sum(0) != n {
			t.Fatalf("after Put: row %v, %d rows, %d in the map, sum %d; want one row of %d", h, tb.rows.n, tb.byKey.n, tb.sum(0), n)
		}
	}

	r := tb.record(tb.get("k1")) // the row itself: its Put skips the map
	r.SetIntAt(0, 2)
	put(r)
	want(2)

	old := tb.record(tb.get("k1"))
	tb.delete("k1") // old's row is dead
	old.SetIntAt(0, 3)
	put(old) // inserts a new row
	want(3)

	stale := tb.record(tb.get("k1"))
	tb.delete("k1")
	nr = tb.newRecord("k1")
	nr.SetIntAt(0, 4)
	put(nr) // the key has a new row; stale's is dead
	stale.SetIntAt(0, 5)
	put(stale) // must replace the new row's values, not revive its own
	want(5)
	if stale.from.live {
		t.Fatal("a deleted row was revived")
	}

	renamed := tb.record(tb.get("k1"))
	renamed.Key = "k2" // another key: the record's row is not its row
	put(renamed)
	if h := tb.get("k2"); h == nil || h == tb.get("k1") || tb.rows.n != 2 {
		t.Fatalf("Put of a record given another key: %d rows, k2's row %v", tb.rows.n, h)
	}

	rollback(&log, 0)
	if tb.rows.n != 0 || tb.byKey.n != 0 || tb.sum(0) != 0 {
		t.Fatalf("after rolling back every change: %d rows, %d in the map, sum %d", tb.rows.n, tb.byKey.n, tb.sum(0))
	}
}

// TestTable_SumKeptFromFirstRead: a column's sum is added up by its first
// sum and kept from then on through puts, deletes and rollbacks, equal
// to the sum over the rows at every step; a column never summed is not
// kept.
func TestTable_SumKeptFromFirstRead(t *testing.T) {
	var log []undo
	tb := newTable("a", Table{Name: "t", Key: "k", Columns: []Field{{Name: "a", Type: Int}, {Name: "s", Type: Text}, {Name: "b", Type: Int}}}, &log)
	scan := func(i int) (s int64) {
		for _, ch := range tb.rows.chunks {
			for _, e := range ch {
				s += e.r.vals[i].i
			}
		}
		return s
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for step := range 3000 {
		if step == 1000 {
			if got := tb.sum(0); got != scan(0) {
				t.Fatalf("first sum %d, rows add up to %d", got, scan(0))
			}
		}
		k := fmt.Sprint(rng.IntN(200))
		mark := len(log)
		switch rng.IntN(3) {
		case 0:
			tb.delete(k)
		default:
			r := tb.newRecord(k)
			if h := tb.get(k); h != nil && rng.IntN(2) == 0 {
				r = tb.record(h)
			}
			r.SetIntAt(0, rng.Int64N(1000)-500)
			r.SetIntAt(2, rng.Int64N(1000))
			if err := tb.put(r); err != nil {
				t.Fatal(err)
			}
		}
		if rng.IntN(4) == 0 {
			rollback(&log, mark)
		}
		if step >= 1000 && tb.sums[0] != scan(0) {
			t.Fatalf("step %d: sum kept %d, rows add up to %d", step, tb.sums[0], scan(0))
		}
	}
	if tb.sums[2] != 0 || len(tb.summed) != 1 {
		t.Fatalf("column b, never summed, is kept (%d, summed %v)", tb.sums[2], tb.summed)
	}
	if got := tb.sum(2); got != scan(2) {
		t.Fatalf("first sum of b %d, rows add up to %d", got, scan(2))
	}
}

// TestRecord_CopyOnWrite: a record read from the table shares the row's
// values until its first change, which never reaches the table or other
// records before Put; after Put the record's next change is its own again.
func TestRecord_CopyOnWrite(t *testing.T) {
	var log []undo
	tb := newTable("a", Table{Name: "t", Key: "k", Columns: []Field{{Name: "n", Type: Int}, {Name: "s", Type: Text}}}, &log)
	nr := tb.newRecord("k")
	nr.SetIntAt(0, 1)
	if err := tb.put(nr); err != nil {
		t.Fatal(err)
	}
	nr.SetIntAt(0, 9) // after Put: nr's own copy
	r1, r2 := tb.record(tb.get("k")), tb.record(tb.get("k"))
	if got := tb.get("k").vals[0].i; got != 1 || r1.IntAt(0) != 1 {
		t.Fatalf("a new record's change after its Put reached the table: %d", got)
	}
	r1.SetIntAt(0, 2)
	r1.SetTextAt(1, "x")
	if tb.get("k").vals[0].i != 1 || r2.IntAt(0) != 1 || r2.TextAt(1) != "" {
		t.Fatal("a read record's change reached the table or another record before Put")
	}
	if err := tb.put(r1); err != nil {
		t.Fatal(err)
	}
	if h := tb.get("k"); h.vals[0].i != 2 || h.vals[1].s != "x" || r2.IntAt(0) != 1 {
		t.Fatalf("after Put: row %v, the other record %d; want 2 x and 1", h.vals, r2.IntAt(0))
	}
	r1.SetIntAt(0, 3)
	if tb.get("k").vals[0].i != 2 {
		t.Fatal("a change after Put reached the table")
	}
}
