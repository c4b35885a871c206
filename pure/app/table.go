package app

import (
	"cmp"
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
	Key  string
	cols *[]Field // the table's columns (with the key first)
	vals []value  // one per column, the key excluded; see own
	// from is the row the record was read from (nil for a new one), so
	// that its Put finds the row without the map while the row is still
	// its key's (live, same key)
	from *row
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

// own gives the record its own copy of the values, if they are the
// table's: read from it (shared), or put (adopted). Shared values are
// told by their capacity, without a flag in every Record: a row's values
// have none spare (cap == len), a record's own always one slot (ownVals,
// newRecord).
func (r *Record) own() {
	if cap(r.vals) == len(r.vals) || adopted(r.vals) {
		r.vals = ownVals(r.vals)
	}
}

// ownVals returns a copy of vals with room for the adopted mark: a
// record's own values have one spare slot past their length, whose i is
// set (1) when Put adopts them as a row's, so that the record copies them
// before its next change instead of Put copying them every time.
func ownVals(vals []value) []value {
	c := make([]value, len(vals), len(vals)+1)
	copy(c, vals)
	return c
}

// adopted reports whether a record's own values were made a row's by Put.
func adopted(vals []value) bool {
	return cap(vals) > len(vals) && vals[:len(vals)+1][len(vals)].i != 0
}

// row is one key of a table, as the table keeps it: the seq's entry, the
// indexes' entries and the table's map (byKey) all point to it, and it
// stays the key's row for as long as the key is in the table, so Put of
// an existing key swaps the row's values without searching the seq (the
// map finds the row). The values themselves are never changed in place:
// Put gives the row new ones, so the undo log and Records read before
// keep the old. They have no spare capacity (cap == len), which is how a
// Record tells them from its own (Record.own). A deleted row is dead (not live); a later Put of its key
// makes a new row.
type row struct {
	key  string
	vals []value // the current values (nil once dead)
	live bool    // in the table: false once deleted (or its insert undone)
	// staged is the number of the save (stage's epoch) that last wrote
	// this row's key: stage writes each row once, however often the log
	// names it.
	staged uint64
}

// undo is one change of a batch: row r of table tb had the values old
// before it (had: it was live; otherwise it was absent).
type undo struct {
	tb  *table
	r   *row
	old []value
	had bool
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
	byKey    rowMap // every live row by key: Get, and Put's and Delete's row
	idx      []*index
	sums     []int64 // per column: the sum of the summed columns' values
	summed   []int   // the Int columns Sum has read, whose sums are kept
	ints     []int   // the Int columns' indexes among a row's values
	isInt    []bool  // per value of a row: an Int column's
	log      *[]undo // the app's undo log: changes since the last save
	rank     int     // the place of prefix among the app's tables' prefixes, in order (stage sorts by it)
	scanning int     // scans running: writing now is a bug in the app
}

func newTable(appName string, t Table, log *[]undo) *table {
	tb := &table{
		name:   t.Name,
		cols:   append([]Field{{Name: t.Key, Type: Text}}, t.Columns...),
		prefix: "a/" + appName + "/" + t.Name + "/",
		sums:   make([]int64, len(t.Columns)),
		byKey:  newRowMap(0),
		log:    log,
	}
	for i, c := range t.Columns {
		tb.isInt = append(tb.isInt, c.Type == Int)
		if c.Type == Int {
			tb.ints = append(tb.ints, i)
		}
	}
	tb.maxKey = store.MaxKeySize - len(tb.prefix)
	for _, ix := range t.Indexes {
		tb.idx = append(tb.idx, newIndex(tb, ix))
	}
	return tb
}

// newRecord returns an empty record with key.
func (tb *table) newRecord(key string) Record {
	return Record{Key: key, cols: &tb.cols, vals: make([]value, len(tb.cols)-1, len(tb.cols))}
}

// record returns row r as a Record sharing the table's values.
func (tb *table) record(r *row) Record {
	return Record{Key: r.key, cols: &tb.cols, vals: r.vals, from: r}
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

// get returns the live row with key k, or nil.
func (tb *table) get(k string) *row { return tb.byKey.get(k) }

// put replaces (or inserts) a record, logging the old values.
func (tb *table) put(r Record) error {
	if r.cols != &tb.cols || len(r.vals) != len(tb.cols)-1 {
		panic(fmt.Sprintf("app: Put of a record that is not from table %q; get it from that table's Get or New", tb.name))
	}
	tb.writable()
	if err := tb.checkKey(r.Key); err != nil {
		return err
	}
	vals := r.vals
	if n := len(vals); cap(vals) > n {
		// r's own values, which the caller may keep changing: mark them
		// adopted, so r's next change copies them (own), and keep them
		// without the mark (a row's values have no spare capacity)
		vals[:n+1][n].i = 1
		vals = vals[:n:n]
	} // else shared: a row's values, never changed in place, kept as they are
	// a live row is its key's row in the map (a key keeps one row while
	// it is in the table), so the row r was read from, if still live and
	// of r's key, is the one the map would find
	h := r.from
	if h == nil || !h.live || h.key != r.Key {
		if h = tb.byKey.get(r.Key); h == nil {
			h = &row{key: r.Key}
		}
	}
	*tb.log = append(*tb.log, undo{tb: tb, r: h, old: h.vals, had: h.live})
	tb.change(h, vals, true)
	return nil
}

// delete removes key, logging the old values. Deleting an absent key does
// nothing.
func (tb *table) delete(key string) {
	tb.writable()
	h := tb.byKey.get(key)
	if h == nil {
		return
	}
	*tb.log = append(*tb.log, undo{tb: tb, r: h, old: h.vals, had: true})
	tb.change(h, nil, false)
}

// change gives row h the values nv (has) or removes it (!has), keeping
// the seq, the map, the indexes and the sums. It logs nothing. Only an
// insert or a delete searches the seq; a change of values does not, and
// an index whose key did not change is not touched.
func (tb *table) change(h *row, nv []value, has bool) {
	had, old := h.live, h.vals
	switch {
	case had && has:
		h.vals = nv
		for _, i := range tb.summed {
			tb.sums[i] += nv[i].i - old[i].i
		}
	case has:
		p, ok := tb.rows.locate(h.key)
		if ok {
			panic("app: table " + tb.name + " has a row its map lacks; this is a bug in package app")
		}
		h.vals, h.live = nv, true
		tb.rows.insert(p, mkEntry(h.key, h))
		tb.byKey.put(h)
		tb.adjust(nv, +1)
	case had:
		p, ok := tb.rows.locate(h.key)
		if !ok {
			panic("app: table " + tb.name + " lost a row; this is a bug in package app")
		}
		tb.rows.remove(p)
		tb.byKey.delete(h.key)
		h.vals, h.live = nil, false
		tb.adjust(old, -1)
	default:
		return
	}
	for _, ix := range tb.idx {
		ix.update(h, old, had, nv, has)
	}
}

// adjust adds (sign +1) or removes (-1) a row's Int values from the
// sums kept.
func (tb *table) adjust(vals []value, sign int64) {
	for _, i := range tb.summed {
		tb.sums[i] += sign * vals[i].i
	}
}

// sum returns the sum of Int column i over the live rows. The first sum
// of a column adds it up and marks it summed; change keeps it from then
// on (rollbacks included: they go through change), so a table whose
// sums nobody reads pays nothing for them on its writes.
func (tb *table) sum(i int) int64 {
	if !slices.Contains(tb.summed, i) {
		s := int64(0)
		for _, ch := range tb.rows.chunks {
			for _, e := range ch {
				s += e.r.vals[i].i
			}
		}
		tb.sums[i] = s
		tb.summed = append(tb.summed, i)
	}
	return tb.sums[i]
}

// rollback undoes the changes logged after mark, newest first.
func rollback(log *[]undo, mark int) {
	l := *log
	for i := len(l) - 1; i >= mark; i-- {
		u := &l[i]
		u.tb.change(u.r, u.old, u.had)
		l[i] = undo{}
	}
	*log = l[:mark]
}

// stageBuf is stage's scratch, kept from save to save.
type stageBuf struct {
	deleted    map[undoKey]bool // keys this save deletes
	rows       []staged         // this save's writes, in the log's order
	sorted     []staged         // rows in store-key order
	starts     []int            // per table rank: where its rows start in sorted
	kbuf, vbuf []byte
}

// staged is a row stage writes: its current values, or a delete of its
// key if it is dead.
type staged struct {
	tb   *table
	r    *row
	h, t uint64 // heads(r.key), for sorting
}

// cmpStaged orders staged rows as their store keys (a table's prefix,
// then the row's key): by the tables' ranks, then by the keys' heads,
// then by the keys.
func cmpStaged(a, b staged) int {
	switch {
	case a.tb != b.tb:
		return a.tb.rank - b.tb.rank
	case a.h != b.h:
		return cmp.Compare(a.h, b.h)
	case a.t != b.t:
		return cmp.Compare(a.t, b.t)
	}
	return cmpTail(a.r.key, b.r.key)
}

// stage writes every record changed since the last save into tx, once
// each, with its current value; scratch buffers are reused (sb). epoch
// numbers this save (it grows from save to save). A log entry's row holds
// its key's current values while it is live, so each row is written once
// (row.staged = epoch) whatever the number of its entries; a dead row's
// key is deleted unless the key has a live row now (a newer row, written
// as such) or was deleted already by this save (sb.deleted, cleared
// here). The rows are written in the store's key order (a table's prefix,
// by its rank, then the row's key; no table's prefix is a prefix of
// another's, as table names have no '/'), so that each write lands after the
// transaction's last instead of being searched for and inserted among
// them.
func stage(tx *store.Tx, log []undo, epoch uint64, sb *stageBuf) error {
	clear(sb.deleted)
	sb.rows = sb.rows[:0]
	for i := range log {
		u := &log[i]
		r, tb := u.r, u.tb
		if r.staged == epoch {
			continue
		}
		r.staged = epoch
		if !r.live {
			k := undoKey{tb, r.key}
			if sb.deleted[k] || tb.byKey.get(r.key) != nil {
				continue
			}
			sb.deleted[k] = true
		}
		h, t := heads(r.key)
		sb.rows = append(sb.rows, staged{tb, r, h, t})
	}
	var last *table // the table whose prefix kbuf starts with
	for _, s := range sb.sortStaged() {
		r, tb := s.r, s.tb
		if tb != last { // rows come table by table: each prefix written once
			sb.kbuf, last = append(sb.kbuf[:0], tb.prefix...), tb
		}
		sb.kbuf = append(sb.kbuf[:len(tb.prefix)], r.key...)
		var err error
		if r.live {
			sb.vbuf = tb.encode(sb.vbuf[:0], r)
			err = tx.Put(sb.kbuf, sb.vbuf, store.Any)
		} else {
			err = tx.Delete(sb.kbuf, store.Any)
		}
		if err != nil {
			return fmt.Errorf("staging key %q of table %q: %w", r.key, tb.name, err)
		}
	}
	clear(sb.rows) // let the rows go: a deleted row may be garbage
	clear(sb.sorted)
	return nil
}

// sortStaged returns sb.rows in store-key order (cmpStaged): placed by
// their tables' ranks (a counting sort, keeping the log's order within a
// table), then each table's sorted, by insertion when it has few rows
// (a transaction's rows of one table are few, and often in order
// already: a New-Order's lines, a Delivery's orders), else by
// slices.SortFunc.
func (sb *stageBuf) sortStaged() []staged {
	nb := 0
	for i := range sb.rows {
		nb = max(nb, sb.rows[i].tb.rank+1)
	}
	st := slices.Grow(sb.starts[:0], nb+1)[:nb+1]
	clear(st)
	for i := range sb.rows {
		st[sb.rows[i].tb.rank+1]++
	}
	for i := 1; i <= nb; i++ {
		st[i] += st[i-1]
	}
	n := len(sb.rows)
	out := slices.Grow(sb.sorted[:0], n)[:n]
	for _, s := range sb.rows {
		out[st[s.tb.rank]] = s
		st[s.tb.rank]++
	}
	// st[k] is now where rank k's rows end
	lo := 0
	for k := range nb {
		hi := st[k]
		if b := out[lo:hi]; len(b) > insertionMax {
			slices.SortFunc(b, cmpStaged)
		} else {
			for i := 1; i < len(b); i++ {
				for j := i; j > 0 && cmpStaged(b[j], b[j-1]) < 0; j-- {
					b[j], b[j-1] = b[j-1], b[j]
				}
			}
		}
		lo = hi
	}
	sb.starts, sb.sorted = st, out
	return out
}

// insertionMax is the most rows of one table sortStaged sorts by
// insertion.
const insertionMax = 32
