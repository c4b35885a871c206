package index

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGit knows one subject and one date.
type fakeGit struct{}

func (fakeGit) Subject(commit string) string { return "subject of " + commit[:4] }
func (fakeGit) Added(path string) string     { return "2026-01-02" }

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The index has one line per experiment and probe: a pairs experiment with
// its commits' subjects, suite, A/A and the judge's verdict; one without
// meta.json with its note's title; and the same bytes every time.
func TestWrite_OneLinePerExperiment(t *testing.T) {
	root := t.TempDir()
	copyDir(t, filepath.Join("..", "note", "testdata", "worse"), filepath.Join(root, "003-pairs-a-b"))
	copyDir(t, filepath.Join("..", "note", "testdata", "same"), filepath.Join(root, "probes", "900-probe"))
	if err := os.MkdirAll(filepath.Join(root, "001-hand"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "001-hand", "note.md"), []byte("# 001: a hand-built note\n\ntext\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "suites"), 0o755) // not an experiment
	for _, d := range []string{"003-pairs-a-b", "probes/900-probe"} {
		b, _ := os.ReadFile(filepath.Join(root, d, "note.golden.md"))
		os.WriteFile(filepath.Join(root, d, "note.md"), b, 0o644)
	}

	var first, second bytes.Buffer
	for _, b := range []*bytes.Buffer{&first, &second} {
		es, err := Collect(root, fakeGit{})
		if err != nil {
			t.Fatal(err)
		}
		if len(es) != 3 {
			t.Fatalf("%d entries, want 3: %+v", len(es), es)
		}
		if err := Write(b, es); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Error("the index differs from one run to the next")
	}
	out := first.String()
	for _, want := range []string{
		"| 001 | 2026-01-02 | 001: a hand-built note ",
		"[001-hand](001-hand/note.md)",
		"[003-pairs-a-b](003-pairs-a-b/note.md)",
		" worse ",
		"## Probes",
		"[probes/900-probe](probes/900-probe/note.md)",
		" → ",
		"subject of ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("index lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "\n| ") != 3+2 { // three lines and two header rows
		t.Errorf("want one line per experiment:\n%s", out)
	}
}

// Numbers order each series by value, not by name: probe 1000 follows 999
// and experiment 1000 follows 999, and experiments come before probes.
func TestCollect_NumericOrder(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"1000-late", "999-early", "010-first", "probes/1000-p", "probes/999-p", "probes/0999-q"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(root, d, "note.md"), []byte("# "+d+"\n"), 0o644)
	}
	es, err := Collect(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Dir)
	}
	want := "010-first 999-early 1000-late probes/999-p probes/0999-q probes/1000-p"
	if strings.Join(got, " ") != want {
		t.Errorf("order %q, want %q", strings.Join(got, " "), want)
	}
}
