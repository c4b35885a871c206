package app

import (
	"fmt"
	"unicode/utf8"
	"unsafe"
)

// Turn is one call as an app's Run sees it: its fields, the tables, and
// its answer. The owner goroutine passes the same Turn to every Run, so
// Run must not keep it (or records it read) after returning.
//
// Reading: Int, Text and JSON return the call's fields; Get, Len, Sum and
// Scan read the app's first table, Table(name) any table. Writing (inputs
// only): New, Put and Delete. Answering: SetNumber, SetText, AddRow and
// Row (Rows views). A method used where the declaration forbids it (Put
// in a view, a field or column not declared) panics: that is a bug in the
// app, answered 500 without changing anything.
type Turn struct {
	tabs []Tab // the app's tables, the first first
	c    *Call
	ep   *endpoint
	rows int // rows written by AddRow and Row

	meter  bool  // a budget is set: charge rows
	left   int64 // rows left in this turn's budget
	budget int64

	rw RowWriter
}

// field returns the index of ep's field name of type typ.
func (t *Turn) field(name string, typ Type) int {
	for i := range t.ep.fields {
		if f := &t.ep.fields[i]; f.Name == name {
			if f.Type != typ {
				panic(fmt.Sprintf("app: field %q of %q is %s, not %s", name, t.ep.name, f.Type, typ))
			}
			return i
		}
	}
	panic(fmt.Sprintf("app: %q declares no field %q", t.ep.name, name))
}

// Int returns the call's Int field name.
func (t *Turn) Int(name string) int64 { return t.c.args[t.field(name, Int)].i }

// Text returns the call's Text field name (the body, for a Body field).
func (t *Turn) Text(name string) string { return t.c.args[t.field(name, Text)].s }

// JSON returns the call's JSON body field name: the pointer its Field's
// New returned, decoded from the body.
func (t *Turn) JSON(name string) any {
	t.field(name, JSON)
	return t.c.json
}

// From returns the first row of the page a Rows view must answer.
func (t *Turn) From() int { return t.c.from }

// Count returns the number of rows a Rows view may answer at most.
func (t *Turn) Count() int { return t.c.count }

// Table returns the app's table name; it panics if there is none. An app
// that names the table by the string it declared it with (Table.Name) is
// answered by comparing the strings' data pointers, not their bytes.
func (t *Turn) Table(name string) *Tab {
	p := unsafe.StringData(name)
	for i := range t.tabs {
		if n := t.tabs[i].tb.name; unsafe.StringData(n) == p && len(n) == len(name) {
			return &t.tabs[i]
		}
	}
	for i := range t.tabs {
		if t.tabs[i].tb.name == name {
			return &t.tabs[i]
		}
	}
	panic(fmt.Sprintf("app: no table %q", name))
}

// TableAt returns the app's table i: 0 is App.Table, then App.Tables in
// order. It is Table without the search by name, for an app that keeps
// its tables' places.
func (t *Turn) TableAt(i int) *Tab { return &t.tabs[i] }

// Get returns the record with key in the first table, and whether there
// is one.
func (t *Turn) Get(key string) (Record, bool) { return t.tabs[0].Get(key) }

// New returns an empty record with key (every column zero) of the first
// table, to fill and Put.
func (t *Turn) New(key string) Record { return t.tabs[0].tb.newRecord(key) }

// Put inserts r into the first table, or replaces the record with its
// key. It refuses an empty key or one too long for the store with an
// error the input may return as is (400).
func (t *Turn) Put(r Record) error { return t.tabs[0].Put(r) }

// Delete removes the record with key from the first table; an absent key
// is no error.
func (t *Turn) Delete(key string) error { return t.tabs[0].Delete(key) }

func (t *Turn) writing(op string) {
	if t.ep.kind != Input {
		panic(fmt.Sprintf("app: %s in view %q; views only read", op, t.ep.name))
	}
}

// Len returns the number of records in the first table.
func (t *Turn) Len() int { return t.tabs[0].Len() }

// Sum returns the sum of the Int column over every record of the first
// table (Tab.Sum: the first Sum of a column adds it up, later ones cost
// nothing).
func (t *Turn) Sum(column string) int64 { return t.tabs[0].Sum(column) }

// Scan calls fn for the records of the first table at positions from to
// from+count-1 in key order (fewer at the end of the table), until fn
// returns false. Only those records are visited.
func (t *Turn) Scan(from, count int, fn func(r Record) bool) { t.tabs[0].Scan(from, count, fn) }

// SetNumber sets the answer to n in decimal.
func (t *Turn) SetNumber(n int64) { t.c.Out = appendInt(t.c.Out[:0], n) }

// SetText sets the answer to s.
func (t *Turn) SetText(s string) { t.c.Out = append(t.c.Out[:0], s...) }

// SetTextBytes is SetText with the answer's bytes in b, which it copies
// and does not keep: an answer built in a scratch buffer, without
// converting it to a string first.
func (t *Turn) SetTextBytes(b []byte) { t.c.Out = append(t.c.Out[:0], b...) }

// Want reports whether the request asked for the Rows view's column
// name (all are asked for unless ?cols= names some), so a Run writing
// rows with Row can skip computing cells nobody reads.
func (t *Turn) Want(name string) bool {
	for i := range t.ep.cols {
		if t.ep.cols[i].name == name {
			return t.c.want&(1<<i) != 0
		}
	}
	panic(fmt.Sprintf("app: view %q has no column %q", t.ep.name, name))
}

// AddRow adds a row computed from r to a Rows view's answer, as a JSON
// object: each requested column of the view (Cols, or the table's key and
// columns) in declared order. Only requested cells are computed.
func (t *Turn) AddRow(r Record) {
	if t.ep.answer != Rows {
		panic(fmt.Sprintf("app: AddRow in %q, which does not answer Rows", t.ep.name))
	}
	b := t.c.Out
	if t.rows > 0 {
		b = append(b, ',')
	}
	t.rows++
	b = append(b, '{')
	want, first := t.c.want, true
	for i := range t.ep.cols {
		if want&(1<<i) == 0 {
			continue
		}
		vc := &t.ep.cols[i]
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, vc.member...)
		switch {
		case vc.col == -1:
			b = appendJSONString(b, r.Key)
		case vc.col >= 0 && vc.typ == Int:
			b = appendInt(b, r.vals[vc.col].i)
		case vc.col >= 0:
			b = appendJSONString(b, r.vals[vc.col].s)
		case vc.col == -3:
			panic(fmt.Sprintf("app: view %q: column %q is written by Row, not AddRow", t.ep.name, vc.name))
		case vc.fInt != nil:
			t.c.Out = b
			v := vc.fInt(t, r)
			b = appendInt(t.c.Out, v)
		default:
			t.c.Out = b
			v := vc.fText(t, r)
			b = appendJSONString(t.c.Out, v)
		}
	}
	t.c.Out = append(b, '}')
}

// RowWriter writes one row of a Rows view cell by cell (Turn.Row), for
// rows that are not a record: each Int or Text call gives the next
// column's value in the view's declared Cols order, and cells the request
// did not ask for are skipped. Call End after the last cell.
type RowWriter struct {
	t     *Turn
	col   int
	first bool
}

// Row starts a new row of a Rows view's answer.
func (t *Turn) Row() *RowWriter {
	if t.ep.answer != Rows {
		panic(fmt.Sprintf("app: Row in %q, which does not answer Rows", t.ep.name))
	}
	if t.rows > 0 {
		t.c.Out = append(t.c.Out, ',')
	}
	t.rows++
	t.c.Out = append(t.c.Out, '{')
	t.rw = RowWriter{t: t, first: true}
	return &t.rw
}

// next returns the next column, or nil if the request skips it.
func (w *RowWriter) next() *vcol {
	ep := w.t.ep
	if w.col >= len(ep.cols) {
		panic(fmt.Sprintf("app: view %q: a row has more cells than its %d columns", ep.name, len(ep.cols)))
	}
	i := w.col
	w.col++
	if w.t.c.want&(1<<i) == 0 {
		return nil
	}
	if !w.first {
		w.t.c.Out = append(w.t.c.Out, ',')
	}
	w.first = false
	vc := &ep.cols[i]
	w.t.c.Out = append(w.t.c.Out, vc.member...)
	return vc
}

// Int writes the next cell, an integer.
func (w *RowWriter) Int(v int64) *RowWriter {
	if w.next() != nil {
		w.t.c.Out = appendInt(w.t.c.Out, v)
	}
	return w
}

// Text writes the next cell, a text.
func (w *RowWriter) Text(s string) *RowWriter {
	if w.next() != nil {
		w.t.c.Out = appendJSONString(w.t.c.Out, s)
	}
	return w
}

// End closes the row.
func (w *RowWriter) End() { w.t.c.Out = append(w.t.c.Out, '}') }

// KeyOrder is a Rows view's Run answering the table's records in key
// order: the page From, Count.
func KeyOrder(t *Turn) error {
	t.Scan(t.From(), t.Count(), func(r Record) bool {
		t.AddRow(r)
		return true
	})
	return nil
}

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it (including its HTML escapes), so answers match json.Marshal.
// s is valid UTF-8 (fields are checked on arrival).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			if r == utf8.RuneError {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
