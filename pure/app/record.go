package app

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"workbench/pure/store"
)

// Record encoding (the value of a table key in the store): a format byte
// (1), then each column in declared order: Int as a zig-zag varint, Text as
// a uvarint length and the bytes.
const recordFormat = 1

func (tb *table) encode(b []byte, r *row) []byte {
	vals := r.vals
	isInt := tb.isInt[:len(vals)]
	b = append(b, recordFormat)
	for i := range vals {
		v := &vals[i]
		if isInt[i] {
			// binary.AppendVarint, with its one-byte case (|v| < 64) first
			if ux := uint64(v.i<<1) ^ uint64(v.i>>63); ux < 0x80 {
				b = append(b, byte(ux))
			} else {
				b = binary.AppendUvarint(b, ux)
			}
		} else {
			if n := len(v.s); n < 0x80 {
				b = append(b, byte(n))
			} else {
				b = binary.AppendUvarint(b, uint64(n))
			}
			b = append(b, v.s...)
		}
	}
	return b
}

// decode returns the row of key (its bytes after the table's prefix)
// with the record value b. The row's key and its Text columns are cut
// from one string holding key and b: one allocation per row instead of
// one per column and one for the key, so a loaded table is fewer objects
// for the collector to mark (a TPC-C stock row 3 instead of 14), and a
// save that encodes the row again reads its texts from adjacent cache
// lines.
func (tb *table) decode(key, b []byte) (*row, error) {
	bad := func(what string) error {
		return fmt.Errorf("record %q: %s; the table's columns changed or the store is damaged", tb.prefix+string(key), what)
	}
	if len(b) == 0 || b[0] != recordFormat {
		return nil, bad("unknown record format")
	}
	var all string
	if len(tb.ints) < len(tb.cols)-1 {
		var sb strings.Builder
		sb.Grow(len(key) + len(b))
		sb.Write(key)
		sb.Write(b)
		all = sb.String()
	} else {
		all = string(key)
	}
	b = b[1:]
	r := &row{key: all[:len(key)], vals: make([]value, len(tb.cols)-1), live: true}
	for i := range r.vals {
		if tb.isInt[i] {
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
			at := len(all) - len(b) + n // b is all's tail
			r.vals[i].s, b = all[at:at+int(l)], b[n+int(l):]
		}
	}
	if len(b) != 0 {
		return nil, bad(fmt.Sprintf("%d bytes after the last column", len(b)))
	}
	return r, nil
}

// load reads the table's records from a snapshot and builds its indexes.
func (tb *table) load(sn *store.Snapshot) error {
	from := []byte(tb.prefix)
	to := []byte(tb.prefix)
	to[len(to)-1]++ // '/'+1: the first key after the prefix
	var err error
	sn.Range(from, to, func(k, v []byte, _ uint64) bool {
		var r *row
		r, err = tb.decode(k[len(tb.prefix):], v)
		if err != nil {
			return false
		}
		tb.rows.appendSorted(mkEntry(r.key, r)) // Range is in key order
		tb.adjust(r.vals, +1)
		return true
	})
	if err != nil {
		return err
	}
	tb.byKey = newRowMap(tb.rows.n)
	for _, ch := range tb.rows.chunks {
		for _, e := range ch {
			tb.byKey.put(e.r)
		}
	}
	for _, ix := range tb.idx {
		es := make([]entry, 0, tb.rows.n)
		for _, ch := range tb.rows.chunks {
			for _, e := range ch {
				es = append(es, mkEntry(string(ix.appendKey(nil, e.r.key, e.r.vals)), e.r))
			}
		}
		slices.SortFunc(es, func(a, b entry) int { return strings.Compare(a.k, b.k) })
		for _, e := range es {
			ix.entries.appendSorted(e)
		}
	}
	return nil
}
