package app

import (
	"bytes"
	"encoding/binary"
	"unsafe"
)

// index is a secondary index of a table in memory: one entry per row,
// ordered by the index key, which is the indexed columns' values in an
// order-preserving encoding followed by the row's key (so entries are
// unique and rows with equal values are in key order). Only the owner
// touches it; it changes with its table (table.replace).
//
// The encoding (see Key): an Int is 8 bytes big-endian with the sign bit
// flipped, so byte order is numeric order; a Text is its bytes with each
// 0x00 written 0x00 0xFF, then 0x00 0x01, so a shorter text sorts first
// and a prefix of values is a prefix of bytes.
type index struct {
	name    string
	tb      *table
	cols    []int // column indexes (the key excluded), in index order
	entries seq
	old     []byte // scratch: the replaced row's index key
	new     []byte // scratch: the new row's index key
}

func newIndex(tb *table, d IndexDef) *index {
	ix := &index{name: d.Name, tb: tb}
	for _, name := range d.Columns {
		ix.cols = append(ix.cols, colIndex(tb.cols, name))
	}
	return ix
}

// appendKey appends the index key of a row of key and values vals to b.
func (ix *index) appendKey(b []byte, key string, vals []value) []byte {
	for _, c := range ix.cols {
		if ix.tb.cols[c+1].Type == Int {
			b = appendKeyInt(b, vals[c].i)
		} else {
			b = appendKeyText(b, vals[c].s)
		}
	}
	return append(b, key...)
}

func appendKeyInt(b []byte, v int64) []byte {
	return binary.BigEndian.AppendUint64(b, uint64(v)^1<<63)
}

func appendKeyText(b []byte, s string) []byte {
	for {
		i := bytes.IndexByte(unsafe.Slice(unsafe.StringData(s), len(s)), 0)
		if i < 0 {
			break
		}
		b = append(append(b, s[:i]...), 0, 0xFF)
		s = s[i+1:]
	}
	return append(append(b, s...), 0, 1)
}

// update moves row r's entry from its values old (had: it was in the
// index) to nv (has: it stays). The entry points to r, which a change of
// values keeps, so an unchanged index key needs no search.
func (ix *index) update(r *row, old []value, had bool, nv []value, has bool) {
	if had {
		ix.old = ix.appendKey(ix.old[:0], r.key, old)
	}
	if has {
		ix.new = ix.appendKey(ix.new[:0], r.key, nv)
	}
	if had {
		if has && bytes.Equal(ix.old, ix.new) {
			return
		}
		p, ok := ix.entries.locate(tmpString(ix.old))
		if !ok {
			panic("app: index " + ix.name + " lost an entry; this is a bug in package app")
		}
		ix.entries.remove(p)
	}
	if has {
		k := string(ix.new)
		p, _ := ix.entries.locate(k)
		ix.entries.insert(p, mkEntry(k, r))
	}
}

// tmpString views b as a string for a lookup that does not keep it.
func tmpString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Key is a prefix of index values for the scans of an Index: build it
// with K and its methods, one value per indexed column from the first,
// for example K().Int(w).Int(d).Text(last). A Key of fewer values than
// the index has columns matches every entry that starts with them.
type Key struct{ b []byte }

// K returns an empty Key (which matches every entry).
func K() Key { return Key{} }

// Int returns k followed by the Int value v.
func (k Key) Int(v int64) Key { return Key{appendKeyInt(k.b[:len(k.b):len(k.b)], v)} }

// Text returns k followed by the Text value s.
func (k Key) Text(s string) Key { return Key{appendKeyText(k.b[:len(k.b):len(k.b)], s)} }

// after returns the first key after every key that starts with k (nil:
// none, when k is empty or all 0xFF).
func (k Key) after() []byte {
	b := bytes.Clone(k.b)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 0xFF {
			b[i]++
			return b[:i+1]
		}
	}
	return nil
}
