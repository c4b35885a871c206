package callgrind

import (
	"strings"
	"testing"
)

// The position line after calls= is relative to the last self-cost line and
// does not become the base of the next one (callgrind's dump.c writes it
// without updating its "last" position). A pairs run found a real dump
// where reading it otherwise made a later relative line negative.
func TestParse_CallPositionDoesNotMoveBase(t *testing.T) {
	const in = `events: Ir
positions: line
fl=(1) a.go
fn=(1) main
10 5
cfn=(2) f
calls=1 +10
+50 100
-3 7
fn=(2)
20 100
`
	p, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var main *Function
	for _, f := range p.Parts[0].Functions {
		if f.Name == "main" {
			main = f
		}
	}
	if main == nil {
		t.Fatal("no main")
	}
	lines := map[uint64]uint64{}
	for _, lc := range main.Lines {
		lines[lc.Line] += lc.Cost[0]
	}
	if lines[10] != 5 || lines[7] != 7 {
		t.Errorf("main's lines = %v: want 5 at line 10 and 7 at line 7 (relative to 10, not to the call at 60)", lines)
	}
	if c := p.Parts[0].Calls; len(c) != 1 || c[0].Line != 60 || c[0].Inclusive[0] != 100 {
		t.Errorf("call = %+v: want the call site at line 60 with inclusive 100", c[0])
	}
}
