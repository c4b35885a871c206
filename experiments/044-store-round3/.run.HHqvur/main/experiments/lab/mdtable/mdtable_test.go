package mdtable

import (
	"strings"
	"testing"
)

func TestTable_PadsByRunes(t *testing.T) {
	tb := New("name", ">value")
	tb.Row("a|b", "−1.00 %")
	tb.Row("µs\nline")
	var b strings.Builder
	tb.Write(&b)
	want := "" +
		"| name    |   value |\n" +
		"|:--------|--------:|\n" +
		"| a\\|b    | −1.00 % |\n" +
		"| µs line |         |\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
