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
	r, err := tb.decode("k1", b)
	if err != nil {
		t.Fatal(err)
	}
	if r.key != "k1" || !r.live || !slices.Equal(r.vals, vals) {
		t.Fatalf("decoded %q live=%v %v, want k1 live %v", r.key, r.live, r.vals, vals)
	}
	if _, err := tb.decode("k1", append(b, 0)); err == nil {
		t.Fatal("a record with a byte after its last column was decoded")
	}
	if _, err := tb.decode("k1", b[:len(b)-1]); err == nil {
		t.Fatal("a record one byte short was decoded")
	}
}
