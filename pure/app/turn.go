package app

import (
	"fmt"
	"unicode/utf8"
)

// Turn is one call as an app's Run sees it: its fields, the table, and its
// answer. The owner goroutine passes the same Turn to every Run, so Run
// must not keep it (or records it read) after returning.
//
// Reading: Int and Text return the call's fields, Get, Len, Sum and Scan
// read the table. Writing (inputs only): New, Put and Delete. Answering:
// SetNumber, SetText, AddRow (Rows views). A method used where the
// declaration forbids it (Put in a view, a field or column not declared)
// panics: that is a bug in the app, answered 500 without changing
// anything.
type Turn struct {
	tb   *table
	c    *Call
	ep   *endpoint
	rows int // rows written by AddRow
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

// From returns the first row of the page a Rows view must answer.
func (t *Turn) From() int { return t.c.from }

// Count returns the number of rows a Rows view may answer at most.
func (t *Turn) Count() int { return t.c.count }

// Get returns the record with key, and whether there is one.
func (t *Turn) Get(key string) (Record, bool) { return t.tb.get(key) }

// New returns an empty record with key (every column zero), to fill and
// Put.
func (t *Turn) New(key string) Record { return t.tb.newRecord(key) }

// Put inserts r, or replaces the record with its key. It refuses an empty
// key or one too long for the store with an error the input may return
// as is (400).
func (t *Turn) Put(r Record) error {
	t.writing("Put")
	if err := t.tb.put(r); err != nil {
		return Errorf(400, "%v", err)
	}
	return nil
}

// Delete removes the record with key; an absent key is no error.
func (t *Turn) Delete(key string) error {
	t.writing("Delete")
	t.tb.delete(key)
	return nil
}

func (t *Turn) writing(op string) {
	if t.ep.kind != Input {
		panic(fmt.Sprintf("app: %s in view %q; views only read", op, t.ep.name))
	}
}

// Len returns the number of records in the table.
func (t *Turn) Len() int { return len(t.tb.rows) }

// Sum returns the sum of the Int column over every record. The table keeps
// it as records change, so it costs nothing to read.
func (t *Turn) Sum(column string) int64 {
	r := Record{cols: &t.tb.cols}
	return t.tb.sums[r.col(column, Int)]
}

// Scan calls fn for the records at positions from to from+count-1 in key
// order (fewer at the end of the table), until fn returns false. Only those
// records are visited.
func (t *Turn) Scan(from, count int, fn func(r Record) bool) {
	rows := t.tb.rows
	if from < 0 || from >= len(rows) || count <= 0 {
		return
	}
	for _, r := range rows[from:min(len(rows), from+count)] {
		if !fn(t.tb.record(r)) {
			return
		}
	}
}

// SetNumber sets the answer to n in decimal.
func (t *Turn) SetNumber(n int64) { t.c.Out = appendInt(t.c.Out[:0], n) }

// SetText sets the answer to s.
func (t *Turn) SetText(s string) { t.c.Out = append(t.c.Out[:0], s...) }

// AddRow adds r to a Rows view's answer as a JSON object: the key under
// the table's Key name, then each column.
func (t *Turn) AddRow(r Record) {
	if t.ep.answer != Rows {
		panic(fmt.Sprintf("app: AddRow in %q, which does not answer Rows", t.ep.name))
	}
	b := t.c.Out
	if t.rows > 0 {
		b = append(b, ',')
	}
	t.rows++
	cols := t.tb.cols
	b = append(b, '{')
	b = appendJSONString(b, cols[0].Name)
	b = append(b, ':')
	b = appendJSONString(b, r.Key)
	for i, v := range r.vals {
		b = append(b, ',')
		b = appendJSONString(b, cols[i+1].Name)
		b = append(b, ':')
		if cols[i+1].Type == Int {
			b = appendInt(b, v.i)
		} else {
			b = appendJSONString(b, v.s)
		}
	}
	t.c.Out = append(b, '}')
}

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
