package callgrind

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no input makes Parse, Check, Total or Convert
// panic, that every parse error is a *SyntaxError, and that a converted
// profile keeps the exact totals. The seeds are the real callgrind
// outputs in testdata/ and a few small edge cases.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.callgrind"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed files in testdata: %v", err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 16<<10 {
			continue // large seeds slow the mutator down and add no syntax
		}
		f.Add(b)
	}
	for _, s := range []string{
		"",
		"events: Ir\n",
		"events: Ir Dr\nfn=(1) a\n1 2 3\ncfn=(1)\ncalls=1 1\n* 5\n",
		"positions: instr line\nevents: Ir\nfn=a\n0x10 3 1\n+2 -1 1\n* * 1\njcnd=1/2 -2 *\n* *\n",
		"events: Ir\nfn=a\n1 1\ntotals: 1\npart: 2\nevents: Ir\nfn=(7) b\n2 2\ntotals: 2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(bytes.NewReader(data))
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T) is not a *SyntaxError", err, err)
			}
			return
		}
		_ = p.Check()
		events := p.Events()
		for _, e := range events {
			_, _ = p.Total(e)
		}
		for _, stacks := range []Stacks{StacksCallers, StacksFlat} {
			prof, err := Convert(p, Options{Stacks: stacks})
			if err != nil {
				continue
			}
			s := sums(prof)
			for i, e := range events {
				want, err := p.SelfTotal(e)
				if err != nil {
					t.Fatalf("Convert succeeded but SelfTotal(%s): %v", e, err)
				}
				if uint64(s[i]) != want {
					t.Fatalf("stacks %d: %s: pprof total %d, self total %d", stacks, e, s[i], want)
				}
			}
		}
	})
}
