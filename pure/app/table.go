package app

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"workbench/pure/store"
)

// Record is one record of an app's table: its key and its column values.
// Get one from Turn.Get or Turn.New (or a Scan), change it with SetInt and
// SetText, and keep it with Turn.Put.
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
	cols := *r.cols
	for i := 1; i < len(cols); i++ {
		if cols[i].Name == name {
			if cols[i].Type != typ {
				panic(fmt.Sprintf("app: column %q is %s, not %s", name, cols[i].Type, typ))
			}
			return i - 1
		}
	}
	panic(fmt.Sprintf("app: the table has no column %q", name))
}

// Int returns the value of the Int column name (0 in a new record).
func (r Record) Int(name string) int64 { return r.vals[r.col(name, Int)].i }

// Text returns the value of the Text column name ("" in a new record).
func (r Record) Text(name string) string { return r.vals[r.col(name, Text)].s }

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

// undo is one change of a batch: the row that key had before (nil if
// absent).
type undo struct {
	key string
	old *row
}

// table is an app's table in memory: rows in key order, running sums of
// the Int columns, and the undo log of the batch being applied. Only the
// owner goroutine touches it.
type table struct {
	cols   []Field // the key first, then the columns
	prefix string  // "a/<app>/<table>/"
	maxKey int     // longest key that fits a store key with the prefix
	rows   []*row  // in key order
	sums   []int64 // per column (Int columns only)
	log    []undo  // changes since the last save
}

func newTable(appName string, t Table) *table {
	tb := &table{
		cols:   append([]Field{{Name: t.Key, Type: Text}}, t.Columns...),
		prefix: "a/" + appName + "/" + t.Name + "/",
		sums:   make([]int64, len(t.Columns)),
	}
	tb.maxKey = store.MaxKeySize - len(tb.prefix)
	return tb
}

// newRecord returns an empty record with key.
func (tb *table) newRecord(key string) Record {
	return Record{Key: key, cols: &tb.cols, vals: make([]value, len(tb.cols)-1)}
}

// search returns key's position and whether it is there.
func (tb *table) search(key string) (int, bool) {
	return slices.BinarySearchFunc(tb.rows, key, func(r *row, k string) int { return strings.Compare(r.key, k) })
}

// get returns key's record, sharing the table's values.
func (tb *table) get(key string) (Record, bool) {
	i, ok := tb.search(key)
	if !ok {
		return Record{}, false
	}
	return tb.record(tb.rows[i]), true
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

// put replaces (or inserts) a record, logging the old row.
func (tb *table) put(r Record) error {
	if r.cols != &tb.cols || len(r.vals) != len(tb.cols)-1 {
		panic("app: Put of a record that is not from this table; get it from Turn.Get or Turn.New")
	}
	if err := tb.checkKey(r.Key); err != nil {
		return err
	}
	nr := &row{key: r.Key, vals: r.vals}
	if !r.shared {
		nr.vals = slices.Clone(r.vals) // the caller may keep changing r
	}
	i, ok := tb.search(r.Key)
	var old *row
	if ok {
		old = tb.rows[i]
		tb.rows[i] = nr
	} else {
		tb.rows = slices.Insert(tb.rows, i, nr)
	}
	tb.log = append(tb.log, undo{key: r.Key, old: old})
	tb.adjust(old, -1)
	tb.adjust(nr, +1)
	return nil
}

// delete removes key, logging the old row. Deleting an absent key does
// nothing.
func (tb *table) delete(key string) {
	i, ok := tb.search(key)
	if !ok {
		return
	}
	old := tb.rows[i]
	tb.rows = slices.Delete(tb.rows, i, i+1)
	tb.log = append(tb.log, undo{key: key, old: old})
	tb.adjust(old, -1)
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

// set puts back row old (or removes key if old is nil) without logging.
func (tb *table) set(key string, old *row) {
	i, ok := tb.search(key)
	if ok {
		tb.adjust(tb.rows[i], -1)
		if old == nil {
			tb.rows = slices.Delete(tb.rows, i, i+1)
		} else {
			tb.rows[i] = old
		}
	} else if old != nil {
		tb.rows = slices.Insert(tb.rows, i, old)
	}
	tb.adjust(old, +1)
}

// rollback undoes the changes logged after mark, newest first.
func (tb *table) rollback(mark int) {
	for i := len(tb.log) - 1; i >= mark; i-- {
		tb.set(tb.log[i].key, tb.log[i].old)
		tb.log[i] = undo{}
	}
	tb.log = tb.log[:mark]
}

// stage writes every key changed since the last save into tx, once each,
// with its current value; scratch buffers are reused.
func (tb *table) stage(tx *store.Tx, seen map[string]bool, kbuf, vbuf []byte) ([]byte, []byte, error) {
	clear(seen)
	for i := len(tb.log) - 1; i >= 0; i-- {
		key := tb.log[i].key
		if seen[key] {
			continue
		}
		seen[key] = true
		kbuf = append(append(kbuf[:0], tb.prefix...), key...)
		j, ok := tb.search(key)
		var err error
		if ok {
			vbuf = tb.encode(vbuf[:0], tb.rows[j])
			err = tx.Put(kbuf, vbuf, store.Any)
		} else {
			err = tx.Delete(kbuf, store.Any)
		}
		if err != nil {
			return kbuf, vbuf, fmt.Errorf("staging key %q: %w", key, err)
		}
	}
	return kbuf, vbuf, nil
}

// saved forgets the undo log after a successful save.
func (tb *table) saved() {
	clear(tb.log)
	tb.log = tb.log[:0]
}

// Record encoding (the value of a table key in the store): a format byte
// (1), then each column in declared order: Int as a zig-zag varint, Text as
// a uvarint length and the bytes.
const recordFormat = 1

func (tb *table) encode(b []byte, r *row) []byte {
	b = append(b, recordFormat)
	for i, v := range r.vals {
		if tb.cols[i+1].Type == Int {
			b = binary.AppendVarint(b, v.i)
		} else {
			b = binary.AppendUvarint(b, uint64(len(v.s)))
			b = append(b, v.s...)
		}
	}
	return b
}

func (tb *table) decode(key string, b []byte) (*row, error) {
	bad := func(what string) error {
		return fmt.Errorf("record %q: %s; the table's columns changed or the store is damaged", tb.prefix+key, what)
	}
	if len(b) == 0 || b[0] != recordFormat {
		return nil, bad("unknown record format")
	}
	b = b[1:]
	r := &row{key: key, vals: make([]value, len(tb.cols)-1)}
	for i := range r.vals {
		if tb.cols[i+1].Type == Int {
			v, n := binary.Varint(b)
			if n <= 0 {
				return nil, bad(fmt.Sprintf("column %q is not a varint", tb.cols[i+1].Name))
			}
			r.vals[i].i, b = v, b[n:]
		} else {
			l, n := binary.Uvarint(b)
			if n <= 0 || l > uint64(len(b)-n) {
				return nil, bad(fmt.Sprintf("column %q has a bad length", tb.cols[i+1].Name))
			}
			r.vals[i].s, b = string(b[n:n+int(l)]), b[n+int(l):]
		}
	}
	if len(b) != 0 {
		return nil, bad(fmt.Sprintf("%d bytes after the last column", len(b)))
	}
	return r, nil
}

// load reads the table's records from a snapshot.
func (tb *table) load(sn *store.Snapshot) error {
	from := []byte(tb.prefix)
	to := []byte(tb.prefix)
	to[len(to)-1]++ // '/'+1: the first key after the prefix
	var err error
	sn.Range(from, to, func(k, v []byte, _ uint64) bool {
		var r *row
		r, err = tb.decode(string(k[len(tb.prefix):]), v)
		if err != nil {
			return false
		}
		tb.rows = append(tb.rows, r) // Range is in key order
		tb.adjust(r, +1)
		return true
	})
	return err
}
