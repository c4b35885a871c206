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
