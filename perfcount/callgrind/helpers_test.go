package callgrind

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// fixture describes a committed callgrind output in testdata/ (see
// testdata/README.md for how each was made).
type fixture struct {
	name  string
	parts int
	total map[string]uint64 // valgrind's "Collected" count per event
}

var fixtures = []fixture{
	{"go-toggle.callgrind", 1, map[string]uint64{"Ir": 4092}},
	{"go-instr.callgrind", 1, map[string]uint64{"Ir": 4092}},
	{"c-inline.callgrind", 1, map[string]uint64{"Ir": 1973}},
	{"c-plain.callgrind", 1, map[string]uint64{"Ir": 1973}},
	{"c-parts.callgrind", 3, map[string]uint64{"Ir": 1973}},
	{"c-jumps.callgrind", 1, map[string]uint64{"Ir": 1440}},
	{"handmade.callgrind", 1, map[string]uint64{"Ir": 935, "Dr": 33}},
	{"go-full.callgrind", 1, map[string]uint64{"Ir": 332552}},
	{"pure-count-stale.callgrind", 1, map[string]uint64{"Ir": 6887584}},
	{"pure-count-clean.callgrind", 1, map[string]uint64{"Ir": 6887584}},
}

func parseFixture(t testing.TB, name string) *Profile {
	t.Helper()
	p, err := ParseFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("ParseFile(%s): %v", name, err)
	}
	return p
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dump renders the data of p that does not depend on the run (pid, time
// ranges) or on compression, one sorted line per function and call.
func dump(p *Profile) string {
	var lines []string
	for i, part := range p.Parts {
		lines = append(lines, fmt.Sprintf("part %d events=%v positions=%v summary=%v totals=%v self=%v",
			i, part.Events, part.Positions, part.Summary, part.Totals, part.SelfSum))
		for _, f := range part.Functions {
			var ls []string
			for _, l := range f.Lines {
				ls = append(ls, fmt.Sprintf("%s:%d@%#x=%v", filepath.Base(l.File), l.Line, l.Addr, l.Cost))
			}
			lines = append(lines, fmt.Sprintf("part %d fn %s [%s] {%s} self=%v lines=%s",
				i, f.Name, filepath.Base(f.File), filepath.Base(f.Object), f.Self, strings.Join(ls, " ")))
		}
		for _, c := range part.Calls {
			lines = append(lines, fmt.Sprintf("part %d call %s -> %s x%d at %s:%d@%#x incl=%v",
				i, c.Caller.Name, c.Callee.Name, c.Count, filepath.Base(c.File), c.Line, c.Addr, c.Inclusive))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// unresolvedCallees lists callees that have no fn= block of their own and
// call nothing: such a callee means that the cfi=/cob= defaults were
// resolved wrongly, since callgrind writes a block for every function
// that has costs.
func unresolvedCallees(p *Profile) []string {
	var out []string
	for _, part := range p.Parts {
		callers := make(map[*Function]bool)
		for _, c := range part.Calls {
			callers[c.Caller] = true
		}
		for _, c := range part.Calls {
			if len(c.Callee.Lines) == 0 && !callers[c.Callee] {
				out = append(out, fmt.Sprintf("part %d: %s [%s] {%s}", part.Number, c.Callee.Name, c.Callee.File, c.Callee.Object))
			}
		}
	}
	return out
}

// misresolvedCallees lists callees without a block of their own whose
// name another function of the same part has: the signature of cfi=/cob=
// defaults resolved wrongly (the callee got the caller's file or object
// and so became a second function). The live test uses it instead of
// unresolvedCallees because a live run may record a call to a function
// that collected nothing of its own and has no block at all: once in a CI
// run on a loaded machine, "lines" (--toggle-collect=main.work) recorded
// a call to runtime.main and nothing else of it, an artifact of Go
// switching goroutine stacks under callgrind (a preemption requested by
// the runtime's monitor, which depends on wall time), not of the parser.
func misresolvedCallees(p *Profile) []string {
	var out []string
	for _, part := range p.Parts {
		callers := make(map[*Function]bool)
		for _, c := range part.Calls {
			callers[c.Caller] = true
		}
		byName := make(map[string][]*Function)
		for _, f := range part.Functions {
			byName[f.Name] = append(byName[f.Name], f)
		}
		for _, c := range part.Calls {
			if len(c.Callee.Lines) > 0 || callers[c.Callee] {
				continue
			}
			for _, f := range byName[c.Callee.Name] {
				if f != c.Callee {
					out = append(out, fmt.Sprintf("part %d: %s [%s] {%s}, also as [%s] {%s}", part.Number, c.Callee.Name, c.Callee.File, c.Callee.Object, f.File, f.Object))
				}
			}
		}
	}
	return out
}
