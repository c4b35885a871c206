package app

import (
	"slices"
	"testing"
)

// TestRecord_EncodeDecode: a row of Int and Text columns (empty texts,
// texts with zero bytes, negative and large Ints, a Text first and last)
// decodes to the values it was encoded from; a record with a byte too
// many or too few is refused.
func TestRecord_EncodeDecode(t *testing.T) {
	var log []undo
	tb := newTable("a", Table{Name: "t", Key: "k", Columns: []Field{
		{Name: "s1", Type: Text}, {Name: "i1", Type: Int}, {Name: "s2", Type: Text},
		{Name: "s3", Type: Text}, {Name: "i2", Type: Int}, {Name: "s4", Type: Text},
	}}, &log)
	vals := []value{{s: "hello"}, {i: -1 << 62}, {s: ""}, {s: "a\x00b\xff"}, {i: 300}, {s: "last text"}}
	b := tb.encode(nil, &row{key: "k1", vals: vals})
	r, err := tb.decode([]byte("k1"), b)
	if err != nil {
		t.Fatal(err)
	}
	if r.key != "k1" || !r.live || !slices.Equal(r.vals, vals) {
		t.Fatalf("decoded %q live=%v %v, want k1 live %v", r.key, r.live, r.vals, vals)
	}
	if _, err := tb.decode([]byte("k1"), append(b, 0)); err == nil {
		t.Fatal("a record with a byte after its last column was decoded")
	}
	if _, err := tb.decode([]byte("k1"), b[:len(b)-1]); err == nil {
		t.Fatal("a record one byte short was decoded")
	}
}

// TestRecord_DecodeAllocs: decoding a row allocates the row, its values
// and one string for its key and texts, however many Text columns it has
// (a TPC-C stock row has 11); a row without Text columns the same three.
func TestRecord_DecodeAllocs(t *testing.T) {
	var log []undo
	cols := []Field{{Name: "i", Type: Int}}
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i2", "j", "k"} {
		cols = append(cols, Field{Name: n, Type: Text})
	}
	tb := newTable("a", Table{Name: "t", Key: "k", Columns: cols}, &log)
	vals := make([]value, len(cols))
	for i := 1; i < len(vals); i++ {
		vals[i].s = "text of twenty-four byte"
	}
	b := tb.encode(nil, &row{key: "k1", vals: vals})
	key := []byte("key-0001")
	if n := testing.AllocsPerRun(100, func() { tb.decode(key, b) }); n != 3 {
		t.Errorf("decoding a row of 11 texts allocated %v times, want 3", n)
	}
	r, _ := tb.decode(key, b)
	if r.key != "key-0001" || !slices.Equal(r.vals, vals) {
		t.Fatalf("decoded %q %v, want key-0001 %v", r.key, r.vals, vals)
	}
	ti := newTable("a", Table{Name: "u", Key: "k", Columns: []Field{{Name: "i", Type: Int}}}, &log)
	bi := ti.encode(nil, &row{key: "k", vals: []value{{i: 7}}})
	if n := testing.AllocsPerRun(100, func() { ti.decode(key, bi) }); n != 3 {
		t.Errorf("decoding a row of one Int allocated %v times, want 3", n)
	}
}
