package callgrind

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParse_Fixtures(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			p := parseFixture(t, fx.name)
			if len(p.Warnings) > 0 {
				t.Errorf("warnings: %v", p.Warnings)
			}
			if len(p.Parts) != fx.parts {
				t.Errorf("got %d parts, want %d", len(p.Parts), fx.parts)
			}
			if err := p.Check(); err != nil {
				t.Errorf("Check: %v", err)
			}
			for ev, want := range fx.total {
				if got, err := p.Total(ev); err != nil || got != want {
					t.Errorf("Total(%s) = %d, %v; want %d", ev, got, err, want)
				}
				if got, err := p.SelfTotal(ev); err != nil || got != want {
					t.Errorf("SelfTotal(%s) = %d, %v; want %d", ev, got, err, want)
				}
			}
			if u := unresolvedCallees(p); len(u) > 0 {
				t.Errorf("callees without a fn= block: %v", u)
			}
		})
	}
}

func TestParse_Handmade(t *testing.T) {
	p := parseFixture(t, "handmade.callgrind")
	want := strings.TrimSpace(`
part 0 call helper -> leaf x3 at a.c:41@0x0 incl=[400 10]
part 0 call main -> helper x2 at a.c:11@0x0 incl=[600 20]
part 0 call main -> leaf x4 at a.c:13@0x0 incl=[300 10]
part 0 events=[Ir Dr] positions=[line] summary=[935 33] totals=[935 33] self=[935 33]
part 0 fn helper [a.c] {.} self=[200 10] lines=a.c:40@0x0=[100 4] b.c:7@0x0=[20 0] a.c:41@0x0=[80 6]
part 0 fn leaf [b.c] {.} self=[700 20] lines=b.c:7@0x0=[600 18] b.c:8@0x0=[100 2]
part 0 fn main [a.c] {.} self=[35 3] lines=a.c:10@0x0=[30 3] a.c:11@0x0=[5 0]`)
	if got := dump(p); got != want {
		t.Errorf("dump:\n%s\nwant:\n%s", got, want)
	}
	if p.Version != 1 || p.Creator != "handmade" {
		t.Errorf("version %d creator %q", p.Version, p.Creator)
	}
}

// The same run written with and without name and position compression
// must parse to the same data.
func TestParse_CompressionIsTransparent(t *testing.T) {
	compressed := dump(parseFixture(t, "c-inline.callgrind"))
	plain := dump(parseFixture(t, "c-plain.callgrind"))
	if compressed != plain {
		t.Errorf("compressed:\n%s\nplain:\n%s", compressed, plain)
	}
}

func TestParse_InstrPositions(t *testing.T) {
	p := parseFixture(t, "go-instr.callgrind")
	part := p.Parts[0]
	if !slices.Equal(part.Positions, []string{"instr", "line"}) {
		t.Fatalf("positions %v", part.Positions)
	}
	var leaf *Function
	for _, f := range part.Functions {
		if f.Name == "main.leaf" {
			leaf = f
		}
	}
	if leaf == nil || leaf.Lines[0].Addr != 0x49ee80 || leaf.Lines[0].Line != 14 {
		t.Fatalf("main.leaf first position: %+v", leaf)
	}
	for _, c := range part.Calls {
		if c.Caller.Name == "main.mix" && c.Callee == leaf {
			// calls=100 -70 -7 is relative to the previous cost line
			// (0x49eec6, line 21) and "* * 400" repeats that line.
			if c.Addr != 0x49eec6 || c.Line != 21 || c.Count != 100 || c.Inclusive[0] != 400 {
				t.Errorf("main.mix -> main.leaf: %+v", c)
			}
		}
	}
	// The per-function self costs agree with the line-only run.
	self := func(p *Profile) map[string]uint64 {
		m := make(map[string]uint64)
		for _, f := range p.Parts[0].Functions {
			m[f.Name] = f.Self[0]
		}
		return m
	}
	a, b := self(p), self(parseFixture(t, "go-toggle.callgrind"))
	for name, v := range b {
		if a[name] != v {
			t.Errorf("%s: instr run self %d, line run %d", name, a[name], v)
		}
	}
}

func TestParse_Parts(t *testing.T) {
	p := parseFixture(t, "c-parts.callgrind")
	var totals []uint64
	for i, part := range p.Parts {
		if part.Number != i+1 {
			t.Errorf("part %d has number %d", i, part.Number)
		}
		v, err := part.Total("Ir")
		if err != nil {
			t.Fatal(err)
		}
		totals = append(totals, v)
	}
	if !slices.Equal(totals, []uint64{1084, 889, 0}) {
		t.Errorf("part totals %v, want [1084 889 0]", totals)
	}
	if p.Parts[1].Cmd != "" || p.Parts[0].Cmd != "./cprog 30" {
		t.Errorf("cmd: %q, %q", p.Parts[0].Cmd, p.Parts[1].Cmd)
	}
}

func TestParse_Errors(t *testing.T) {
	tests := []struct {
		name, in string
		err      error
		line     int
		msg      string
	}{
		{"empty", "", ErrNoEvents, 0, "no parts"},
		{"no header", "fn=main\n10 5\n", ErrNoEvents, 1, "before any header"},
		{"cost before events", "pid: 1\nfn=main\n10 5\n", ErrNoEvents, 3, "before events"},
		{"no events at all", "pid: 1\n", ErrNoEvents, 1, "no events"},
		{"calls without cfn", "events: Ir\nfn=main\ncalls=1 5\n", ErrSyntax, 3, "expected cfn="},
		{"calls outside fn", "events: Ir\ncfn=f\ncalls=1 5\n", ErrSyntax, 3, "expected fn="},
		{"truncated after calls", "events: Ir\nfn=main\ncfn=f\ncalls=1 5\n", ErrTruncated, 4, "expected its cost line"},
		{"calls then spec", "events: Ir\nfn=main\ncfn=f\ncalls=1 5\nfn=g\n", ErrSyntax, 5, "expected the cost line"},
		{"undefined name", "events: Ir\nfn=(3)\n", ErrSyntax, 2, "used before it is defined"},
		{"unclosed name", "events: Ir\nfn=(3 main\n", ErrSyntax, 2, "no closing"},
		{"too many costs", "events: Ir\nfn=main\n10 5 6\n", ErrSyntax, 3, "expected at most 1"},
		{"bad cost", "events: Ir\nfn=main\n10 x\n", ErrSyntax, 3, "expected a number"},
		{"negative subposition", "events: Ir\nfn=main\n-5 1\n", ErrSyntax, 3, "negative"},
		{"bad subposition", "events: Ir\nfn=main\n+x 1\n", ErrSyntax, 3, "subposition"},
		{"missing subposition", "positions: instr line\nevents: Ir\nfn=main\n0x10\n", ErrSyntax, 4, "expected 2"},
		{"cost outside fn", "events: Ir\n10 1\n", ErrSyntax, 2, "expected fn="},
		{"self sum overflow", "events: Ir\nfn=main\n1 18446744073709551615\n2 1\n", ErrOverflow, 4, "overflows"},
		{"cost out of range", "events: Ir\nfn=main\n1 99999999999999999999\n", ErrOverflow, 3, "out of range"},
		{"position overflow", "events: Ir\nfn=main\n+18446744073709551615 1\n+1 1\n", ErrSyntax, 4, "overflows"},
		{"version", "version: 2\n", ErrSyntax, 1, "not supported"},
		{"positions", "positions: foo\n", ErrSyntax, 1, "expected instr, bb or line"},
		{"garbage", "events: Ir\nhello world\n", ErrSyntax, 2, "expected a header line"},
		{"empty totals", "events: Ir\ntotals:\n", ErrSyntax, 2, "has no costs"},
		{"summary first", "pid: 1\nsummary: 5\n", ErrNoEvents, 2, "expected events: first"},
		{"duplicate event", "events: Ir Ir\n", ErrSyntax, 1, "given twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.in))
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err %v is not a *SyntaxError", err)
			}
			if se.Line != tt.line || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got line %d msg %q; want line %d msg containing %q", se.Line, se.Msg, tt.line, tt.msg)
			}
		})
	}
}

func TestParseFile_ErrorNamesFile(t *testing.T) {
	_, err := ParseFile("testdata/goprog/main.go")
	if err == nil || !strings.Contains(err.Error(), "testdata/goprog/main.go:") {
		t.Errorf("err = %v, want one that names the file and line", err)
	}
}

func TestParse_Warnings(t *testing.T) {
	p, err := Parse(strings.NewReader("events: Ir\nfrobnicate: 3\nfn=main\nxyz=1\n1 5\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 2 {
		t.Errorf("warnings %v, want 2", p.Warnings)
	}
	if v, _ := p.Total("Ir"); v != 5 {
		t.Errorf("total %d, want 5", v)
	}
}

// Cutting a file anywhere must never pass silently: Parse or Check fails,
// or the cut kept every cost line.
func TestParse_TruncatedNeverPassesSilently(t *testing.T) {
	data := string(readFixture(t, "go-toggle.callgrind"))
	headerEnd := strings.Index(data, "summary:")
	for n := range len(data) {
		p, err := Parse(strings.NewReader(data[:n]))
		if err != nil {
			continue
		}
		if err := p.Check(); err != nil {
			if !errors.Is(err, ErrTotalMismatch) {
				t.Errorf("cut at %d: Check error %v does not wrap ErrTotalMismatch", n, err)
			}
			continue
		}
		if got, _ := p.SelfTotal("Ir"); got != 4092 && n > headerEnd {
			t.Errorf("cut at byte %d passes Parse and Check with total %d, want an error", n, got)
		}
	}
}

// TestMisresolvedCallees: the live test's check flags a callee that became
// a second function of its name (the wrong-defaults signature) and lets a
// callee with no block and no namesake pass.
func TestMisresolvedCallees(t *testing.T) {
	caller := &Function{Name: "main.main", File: "main.go", Lines: []*LineCost{{File: "main.go", Line: 3, Cost: []uint64{5}}}}
	real := &Function{Name: "main.work", File: "main.go", Lines: []*LineCost{{File: "main.go", Line: 9, Cost: []uint64{7}}}}
	wrong := &Function{Name: "main.work", File: "asm_amd64.s"}
	lone := &Function{Name: "runtime.main", File: "asm_amd64.s"}
	p := &Profile{Parts: []*Part{{Number: 1, Functions: []*Function{caller, real, wrong, lone},
		Calls: []*Call{{Caller: caller, Callee: wrong}, {Caller: caller, Callee: lone}, {Caller: caller, Callee: real}}}}}
	got := misresolvedCallees(p)
	if len(got) != 1 || !strings.Contains(got[0], "main.work [asm_amd64.s]") {
		t.Errorf("misresolvedCallees = %q, want only main.work's second function", got)
	}
	if u := unresolvedCallees(p); len(u) != 2 {
		t.Errorf("unresolvedCallees = %q, want both callees without a block", u)
	}
}
