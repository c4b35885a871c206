package note

import (
	"path/filepath"
	"strings"
	"testing"

	"workbench/perfcount"
)

// TestWrite_MixedSourcesAndMachines checks that counts from perf and
// callgrind get a row each and no comparison, and that runs from two
// machines are shown side by side.
func TestWrite_MixedSourcesAndMachines(t *testing.T) {
	c := genCases()["crash"]
	c.tail = ""
	c.runs = genRuns("005-mixed", 6, x86VM, []wl{
		{name: "store-get", throughput: 127764, timeNoise: 0.004, event: "Ir", source: perfcount.SourceCallgrind, count: 1437500},
	}, "HEAD~1", "HEAD")
	for i := range c.runs {
		if c.runs[i].Side == "after" {
			c.runs[i].Counts[0].Source = perfcount.SourcePerf
		}
		if c.runs[i].Pair == 6 {
			c.runs[i].Machine = pi5
		}
	}
	dir := filepath.Join(t.TempDir(), "005-mixed")
	if err := writeCase(dir, c); err != nil {
		t.Fatal(err)
	}
	e, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := e.Write(&b); err != nil {
		t.Fatal(err)
	}
	note := b.String()
	for _, want := range []string{
		"| store-get | Ir    | callgrind | 6 runs |     1,437,500 |            — | not compared | unknown: sources mixed |",
		"| store-get | Ir    | perf      | 6 runs |             — |    1,437,500 | not compared | unknown: sources mixed |",
		"| Ir         | mixed  | none  |         — |         — |                          — |    — |      — |         — | unknown |",
		"|                      — |     — |     not compared |         — | unknown |",
		"the runs mix perf and callgrind counts",
		"The runs were taken on 2 different machines",
		"machine 1 (10 runs)",
		"machine 2 (2 runs)",
	} {
		if !strings.Contains(note, want) {
			t.Errorf("note lacks %q:\n%s", want, note)
		}
	}
}
