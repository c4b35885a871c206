package app

import (
	"errors"
	"fmt"
	"slices"

	"workbench/pure/store"
)

// Record is one record of an app's table: its key and its column values.
// Get one from Turn.Get or Turn.New (Tab.Get, Tab.New, or a scan), change
// it with SetInt and SetText (or SetIntAt, SetTextAt), and keep it with
// Put.
//
// Lifetime: a Record read from the table shares its values with the
// table until its first Set, which copies them, so reading is free and
// changing a Record never changes the table before Put.
type Record struct {
	Key    string
	cols   *[]Field // the table's columns (with the key first)
	vals   []value  // one per column, the key excluded
	shared bool     // vals belongs to the table: copy before changing
}

// value is one column's value.
type value struct {
	i int64
	s string
}

// col returns the index of column name, panicking (a bug in the app) if
// the table has no such column of type typ.
func (r *Record) col(name string, typ Type) int {
	i := colIndex(*r.cols, name)
	if i < 0 {
		panic(fmt.Sprintf("app: the table has no column %q", name))
	}
	if t := (*r.cols)[i+1].Type; t != typ {
		panic(fmt.Sprintf("app: column %q is %s, not %s", name, t, typ))
	}
	return i
}

// colIndex returns the index among the columns (the key excluded) of
// name, or -1.
func colIndex(cols []Field, name string) int {
	for i := 1; i < len(cols); i++ {
		if cols[i].Name == name {
			return i - 1
		}
	}
	return -1
}

// Int returns the value of the Int column name (0 in a new record).
func (r Record) Int(name string) int64 { return r.vals[r.col(name, Int)].i }

// Text returns the value of the Text column name ("" in a new record).
func (r Record) Text(name string) string { return r.vals[r.col(name, Text)].s }

// IntAt returns the value of column i, counted in Table.Columns from 0
// (Tab.Col finds i by name). Reading a Text column this way gives 0.
func (r Record) IntAt(i int) int64 { return r.vals[i].i }

// TextAt returns the value of column i, counted in Table.Columns from 0.
// Reading an Int column this way gives "".
func (r Record) TextAt(i int) string { return r.vals[i].s }

// SetInt sets the Int column name to v.
func (r *Record) SetInt(name string, v int64) {
	i := r.col(name, Int)
	r.own()
	r.vals[i].i = v
}

// SetText sets the Text column name to s.
func (r *Record) SetText(name string, s string) {
	i := r.col(name, Text)
	r.own()
	r.vals[i].s = s
}

// SetIntAt sets column i (counted in Table.Columns from 0), which must be
// an Int column, to v.
func (r *Record) SetIntAt(i int, v int64) {
	if (*r.cols)[i+1].Type != Int {
		panic(fmt.Sprintf("app: column %q is %s, not %s", (*r.cols)[i+1].Name, (*r.cols)[i+1].Type, Int))
	}
	r.own()
	r.vals[i].i = v
}

// SetTextAt sets column i (counted in Table.Columns from 0), which must
// be a Text column, to s.
func (r *Record) SetTextAt(i int, s string) {
	if (*r.cols)[i+1].Type != Text {
		panic(fmt.Sprintf("app: column %q is %s, not %s", (*r.cols)[i+1].Name, (*r.cols)[i+1].Type, Text))
	}
	r.own()
	r.vals[i].s = s
}

// own gives the record its own copy of the values.
func (r *Record) own() {
	if r.shared {
		r.vals = slices.Clone(r.vals)
		r.shared = false
	}
}

// row is a record as the table keeps it. Rows are never changed in place:
// Put replaces the row, so the undo log can keep the old one.
type row struct {
	key  string
	vals []value
}

// undo is one change of a batch: the row that key of tb had before (nil
// if absent).
type undo struct {
	tb  *table
	key string
	old *row
}

// undoKey names a changed record when a batch is staged.
type undoKey struct {
	tb  *table
	key string
}

// table is one of an app's tables in memory: rows in key order, its
// secondary indexes, running sums of the Int columns. Only the owner
// goroutine touches it. Its changes go to the app's one undo log, so a
// turn that writes several tables is undone as a whole.
type table struct {
	name     string
	cols     []Field // the key first, then the columns
	prefix   string  // "a/<app>/<table>/"
	maxKey   int     // longest key that fits a store key with the prefix
	rows     seq
	idx      []*index
	sums     []int64 // per column (Int columns only)
	log      *[]undo // the app's undo log: changes since the last save
	scanning int     // scans running: writing now is a bug in the app
}

func newTable(appName string, t Table, log *[]undo) *table {
	tb := &table{
		name:   t.Name,
		cols:   append([]Field{{Name: t.Key, Type: Text}}, t.Columns...),
		prefix: "a/" + appName + "/" + t.Name + "/",
		sums:   make([]int64, len(t.Columns)),
		log:    log,
	}
	tb.maxKey = store.MaxKeySize - len(tb.prefix)
	for _, ix := range t.Indexes {
		tb.idx = append(tb.idx, newIndex(tb, ix))
	}
	return tb
}

// newRecord returns an empty record with key.
func (tb *table) newRecord(key string) Record {
	return Record{Key: key, cols: &tb.cols, vals: make([]value, len(tb.cols)-1)}
}

// get returns key's record, sharing the table's values.
func (tb *table) get(key string) (Record, bool) {
	r := tb.rows.get(key)
	if r == nil {
		return Record{}, false
	}
	return tb.record(r), true
}

func (tb *table) record(r *row) Record {
	return Record{Key: r.key, cols: &tb.cols, vals: r.vals, shared: true}
}

// errKey is the cause of a refused key: empty or too long for the store.
var errKey = errors.New("bad key")

// checkKey refuses keys the store cannot hold.
func (tb *table) checkKey(key string) error {
	if key == "" {
		return fmt.Errorf("%w: the key is empty; give a non-empty key", errKey)
	}
	if len(key) > tb.maxKey {
		return fmt.Errorf("%w: the key is %d bytes, longer than the table's limit of %d; use a shorter key", errKey, len(key), tb.maxKey)
	}
	return nil
}

// writable panics if a scan of the table is running: the scan's
// callback must not change what it walks.
func (tb *table) writable() {
	if tb.scanning > 0 {
		panic(fmt.Sprintf("app: write to table %q during a scan of it; collect the keys and write after the scan", tb.name))
	}
}

// put replaces (or inserts) a record, logging the old row.
func (tb *table) put(r Record) error {
	if r.cols != &tb.cols || len(r.vals) != len(tb.cols)-1 {
		panic(fmt.Sprintf("app: Put of a record that is not from table %q; get it from that table's Get or New", tb.name))
	}
	tb.writable()
	if err := tb.checkKey(r.Key); err != nil {
		return err
	}
	nr := &row{key: r.Key, vals: r.vals}
	if !r.shared {
		nr.vals = slices.Clone(r.vals) // the caller may keep changing r
	}
	old := tb.replace(r.Key, nr)
	*tb.log = append(*tb.log, undo{tb: tb, key: r.Key, old: old})
	return nil
}

// delete removes key, logging the old row. Deleting an absent key does
// nothing.
func (tb *table) delete(key string) {
	tb.writable()
	if tb.rows.get(key) == nil {
		return
	}
	old := tb.replace(key, nil)
	*tb.log = append(*tb.log, undo{tb: tb, key: key, old: old})
}

// replace makes nr (nil: none) key's row, keeping indexes and sums, and
// returns the row it replaced (nil: none). It logs nothing.
func (tb *table) replace(key string, nr *row) *row {
	p, ok := tb.rows.locate(key)
	var old *row
	switch {
	case ok && nr != nil:
		old = tb.rows.chunks[p.c][p.i].r
		tb.rows.chunks[p.c][p.i] = entry{key, nr}
	case ok:
		old = tb.rows.chunks[p.c][p.i].r
		tb.rows.remove(p)
	case nr != nil:
		tb.rows.insert(p, entry{key, nr})
	default:
		return nil
	}
	for _, ix := range tb.idx {
		ix.update(old, nr)
	}
	tb.adjust(old, -1)
	tb.adjust(nr, +1)
	return old
}

// adjust adds (sign +1) or removes (-1) a row's Int values from the sums.
func (tb *table) adjust(r *row, sign int64) {
	if r == nil {
		return
	}
	for i, v := range r.vals {
		if tb.cols[i+1].Type == Int {
			tb.sums[i] += sign * v.i
		}
	}
}

// rollback undoes the changes logged after mark, newest first.
func rollback(log *[]undo, mark int) {
	l := *log
	for i := len(l) - 1; i >= mark; i-- {
		l[i].tb.replace(l[i].key, l[i].old)
		l[i] = undo{}
	}
	*log = l[:mark]
}

// stage writes every record changed since the last save into tx, once
// each, with its current value; scratch buffers are reused.
func stage(tx *store.Tx, log []undo, seen map[undoKey]bool, kbuf, vbuf []byte) ([]byte, []byte, error) {
	clear(seen)
	for i := len(log) - 1; i >= 0; i-- {
		tb, key := log[i].tb, log[i].key
		if seen[undoKey{tb, key}] {
			continue
		}
		seen[undoKey{tb, key}] = true
		kbuf = append(append(kbuf[:0], tb.prefix...), key...)
		var err error
		if r := tb.rows.get(key); r != nil {
			vbuf = tb.encode(vbuf[:0], r)
			err = tx.Put(kbuf, vbuf, store.Any)
		} else {
			err = tx.Delete(kbuf, store.Any)
		}
		if err != nil {
			return kbuf, vbuf, fmt.Errorf("staging key %q of table %q: %w", key, tb.name, err)
		}
	}
	return kbuf, vbuf, nil
}
