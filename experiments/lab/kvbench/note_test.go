package kvbench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNote_Errors(t *testing.T) {
	dir := t.TempDir()
	if err := WriteNote(dir); err == nil || !strings.Contains(err.Error(), "run.sh") {
		t.Errorf("note without runs.jsonl: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "runs.jsonl"), []byte("{\"round\":0}\nbroken\n"), 0o644)
	if err := WriteNote(dir); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("note from a broken line: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "runs.jsonl"), nil, 0o644)
	if err := WriteNote(dir); err == nil {
		t.Error("note from no lines did not fail")
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{FormatInt(1234567.6), "1,234,568"}, {FormatInt(999), "999"}, {FormatInt(-1234), "-1,234"},
		{sig3(0.000123456), "0.000123"}, {sig3(12.345), "12.3"}, {sig3(1234.5), "1234"}, {sig3(0), "0"},
		{fmtMs(0.000246), "0.246 ms"}, {fmtUs(0.0000061), "6.10 µs"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}

// TestNote_CeilingColumn: with a bare group commit in the records, the
// targets table gains its ratio to each target's reference, the median of
// the same rounds; without one, the column is absent.
func TestNote_CeilingColumn(t *testing.T) {
	w := WorkloadCommit(64)
	var recs []Record
	for round, rates := range [][3]float64{{150, 100, 160}, {130, 100, 140}, {170, 100, 180}} {
		for i, c := range []string{NamePure, NamePebble, NameGroup} {
			recs = append(recs, Record{Experiment: "900-x", Round: round, Cell: i, Contender: c, Workload: w, Writers: 64, OpsPerS: rates[i]})
		}
	}
	note := renderNote(recs)
	row := lineWith(note, "64 writers: at least 1.5 × pebble")
	// pure ÷ pebble 1.50, 1.30, 1.70: median 1.50, met; ceiling ÷ pebble median 1.60.
	if !strings.Contains(row, "| 1.50, 1.30, 1.70 |") || !strings.Contains(row, "**met**") || !strings.HasSuffix(row, "1.60 |") {
		t.Errorf("64-writer target row = %q; want pure's ratios, met, and the ceiling's 1.60 at the end", row)
	}
	if head := lineWith(note, "| target"); !strings.HasSuffix(head, "| "+NameGroup+" |") {
		t.Errorf("targets table's head %q has no %s column", head, NameGroup)
	}
	without := renderNote(recs[:2])
	if strings.Contains(lineWith(without, "| target"), NameGroup) {
		t.Errorf("a run without %s has its column: %q", NameGroup, lineWith(without, "| target"))
	}
}

// lineWith returns the first line of s containing sub, or "".
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
