package app

import "fmt"

// Tab is one of the app's tables as a turn reads and writes it: Turn.Table
// returns it. Like the Turn, it is valid only during the Run it was given
// to. Every row it reads or writes is charged to the turn's budget, when
// the runtime has one (Options.Budget).
type Tab struct {
	t  *Turn
	tb *table
	ix []Index
}

// Index is a secondary index of a table (IndexDef) as a turn reads it:
// Tab.Index returns it. Its scans visit the table's records in the order
// of the indexed columns' values, then of the records' keys.
type Index struct {
	t  *Turn
	ix *index
}

// Name returns the table's name.
func (tb *Tab) Name() string { return tb.tb.name }

// Col returns the position of column name in Table.Columns, for IntAt,
// TextAt, SetIntAt and SetTextAt; it panics if there is no such column.
func (tb *Tab) Col(name string) int {
	i := colIndex(tb.tb.cols, name)
	if i < 0 {
		panic(fmt.Sprintf("app: table %q has no column %q", tb.tb.name, name))
	}
	return i
}

// Get returns the record with key, and whether there is one.
func (tb *Tab) Get(key string) (Record, bool) {
	if tb.t.metered() {
		tb.t.charge(1)
	}
	if r := tb.tb.get(key); r != nil {
		return tb.tb.record(r), true
	}
	return Record{}, false
}

// GetBytes is Get with the key as bytes, which it does not keep: a
// lookup by a key built in a scratch buffer, without allocating.
func (tb *Tab) GetBytes(key []byte) (Record, bool) {
	if tb.t.metered() {
		tb.t.charge(1)
	}
	if r := tb.tb.get(tmpString(key)); r != nil {
		return tb.tb.record(r), true
	}
	return Record{}, false
}

// New returns an empty record with key (every column zero), to fill and
// Put.
func (tb *Tab) New(key string) Record { return tb.tb.newRecord(key) }

// Put inserts r, or replaces the record with its key. It refuses an empty
// key or one too long for the store with an error the input may return
// as is (400). Only inputs write; a view that calls Put panics.
func (tb *Tab) Put(r Record) error {
	tb.t.writing("Put")
	if tb.t.metered() {
		tb.t.charge(1)
	}
	if err := tb.tb.put(r); err != nil {
		return Errorf(400, "%v", err)
	}
	return nil
}

// Delete removes the record with key; an absent key is no error.
func (tb *Tab) Delete(key string) error {
	tb.t.writing("Delete")
	if tb.t.metered() {
		tb.t.charge(1)
	}
	tb.tb.delete(key)
	return nil
}

// Len returns the number of records in the table.
func (tb *Tab) Len() int { return tb.tb.rows.n }

// Sum returns the sum of the Int column over every record. The first Sum
// of a column adds it up (one pass over the table, not charged to the
// budget); from then on the table keeps it as records change, so it
// costs nothing to read. Columns never summed cost their writes nothing.
func (tb *Tab) Sum(column string) int64 {
	r := Record{cols: &tb.tb.cols}
	return tb.tb.sum(r.col(column, Int))
}

// Scan calls fn for the records at positions from to from+count-1 in key
// order (fewer at the end of the table), until fn returns false. Only those
// records are visited. fn must not write this table.
func (tb *Tab) Scan(from, count int, fn func(r Record) bool) {
	s := &tb.tb.rows
	if from < 0 || from >= s.n || count <= 0 {
		return
	}
	tb.t.forward(tb.tb, s, s.at(from), "", false, count, fn)
}

// Range calls fn for the records with keys from lo (inclusive) to hi
// (exclusive; "" for no bound) in key order, until fn returns false. fn
// must not write this table.
func (tb *Tab) Range(lo, hi string, fn func(r Record) bool) {
	s := &tb.tb.rows
	p, _ := s.locate(lo)
	tb.t.forward(tb.tb, s, p, hi, hi != "", -1, fn)
}

// RangeDesc is Range in descending key order: from the last key below hi
// down to lo.
func (tb *Tab) RangeDesc(lo, hi string, fn func(r Record) bool) {
	s := &tb.tb.rows
	p := pos{len(s.chunks), 0}
	if hi != "" {
		p, _ = s.locate(hi)
	}
	tb.t.backward(tb.tb, s, p, lo, fn)
}

// Index returns the table's index name (declared in Table.Indexes); it
// panics if there is none.
func (tb *Tab) Index(name string) *Index {
	for i := range tb.ix {
		if tb.ix[i].ix.name == name {
			return &tb.ix[i]
		}
	}
	panic(fmt.Sprintf("app: table %q has no index %q", tb.tb.name, name))
}

// Len returns the number of entries (the table's records).
func (ix *Index) Len() int { return ix.ix.entries.n }

// Range calls fn for the records whose indexed values are at least lo
// and below hi (an empty Key: no bound), compared value by value as far as
// the Key goes, in index order, until fn returns false. So
// Range(K().Int(5), K()) visits every record whose first indexed column is
// 5 or more. fn must not write this table.
func (ix *Index) Range(lo, hi Key, fn func(r Record) bool) {
	s := &ix.ix.entries
	p, _ := s.locate(tmpString(lo.b))
	ix.t.forward(ix.ix.tb, s, p, tmpString(hi.b), len(hi.b) > 0, -1, fn)
}

// RangeDesc is Range in descending index order.
func (ix *Index) RangeDesc(lo, hi Key, fn func(r Record) bool) {
	s := &ix.ix.entries
	p := pos{len(s.chunks), 0}
	if len(hi.b) > 0 {
		p, _ = s.locate(tmpString(hi.b))
	}
	ix.t.backward(ix.ix.tb, s, p, tmpString(lo.b), fn)
}

// Prefix calls fn for the records whose indexed values start with p, in
// index order, until fn returns false.
func (ix *Index) Prefix(p Key, fn func(r Record) bool) {
	ix.Range(p, Key{p.after()}, fn)
}

// First returns the first record in index order whose values start with
// p, and whether there is one.
func (ix *Index) First(p Key) (Record, bool) {
	var out Record
	var found bool
	ix.Prefix(p, func(r Record) bool { out, found = r, true; return false })
	return out, found
}

// Last returns the last record in index order whose values start with p,
// and whether there is one.
func (ix *Index) Last(p Key) (Record, bool) {
	var out Record
	var found bool
	ix.RangeDesc(p, Key{p.after()}, func(r Record) bool { out, found = r, true; return false })
	return out, found
}

// Page calls fn for the records at positions from to from+count-1 in
// index order, or in descending index order if desc, until fn returns
// false.
func (ix *Index) Page(from, count int, desc bool, fn func(r Record) bool) {
	s := &ix.ix.entries
	if from < 0 || from >= s.n || count <= 0 {
		return
	}
	if !desc {
		ix.t.forward(ix.ix.tb, s, s.at(from), "", false, count, fn)
		return
	}
	end := s.at(s.n - from - 1)
	end.i++ // backward starts before its position
	n := 0
	ix.t.backward(ix.ix.tb, s, end, "", func(r Record) bool { n++; return fn(r) && n < count })
}

// Count returns the number of records Range(lo, hi, ...) would visit,
// without visiting them (it is charged as one row read).
func (ix *Index) Count(lo, hi Key) int {
	if ix.t.metered() {
		ix.t.charge(1)
	}
	s := &ix.ix.entries
	a, _ := s.locate(tmpString(lo.b))
	end := s.n
	if len(hi.b) > 0 {
		b, _ := s.locate(tmpString(hi.b))
		end = s.rank(b)
	}
	return max(0, end-s.rank(a))
}
