package note

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"workbench/experiments/lab/expdir"
)

var update = flag.Bool("update", false, "rewrite the inputs and note.golden.md of the cases in testdata")

// caseNames are the golden cases, each a directory of testdata.
var caseNames = []string{"same", "worse", "crash", "disturbed"}

// copyCase copies testdata/name into a fresh directory named like the
// experiment, adds its generated profiles, and returns the directory.
func copyCase(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("testdata", name)
	dst := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() || strings.HasPrefix(e.Name(), "note.") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeProfiles(dst, genCases()[name]); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestRender_Golden renders each case and compares its note with
// note.golden.md, writing note.got.md beside it on a mismatch.
func TestRender_Golden(t *testing.T) {
	cases := genCases()
	for _, name := range caseNames {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", name)
			if *update {
				if err := writeCase(dir, cases[name]); err != nil {
					t.Fatal(err)
				}
			}
			exp := copyCase(t, name)
			if _, err := Render(exp); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(exp, expdir.NoteFile))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(exp, expdir.PlotFile)); err != nil {
				t.Errorf("no plot: %v", err)
			}
			golden := filepath.Join(dir, "note.golden.md")
			gotPath := filepath.Join(dir, "note.got.md")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				os.Remove(gotPath)
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				if err := os.WriteFile(gotPath, got, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Errorf("note differs from %s: see %s (diff them; run with -update if the change is intended)", golden, gotPath)
			} else {
				os.Remove(gotPath)
			}
		})
	}
}

// TestTestdata_UpToDate checks that the committed inputs are what the
// generator in gen_test.go writes, so that neither drifts alone.
func TestTestdata_UpToDate(t *testing.T) {
	if *update {
		t.Skip("rewriting")
	}
	cases := genCases()
	for _, name := range caseNames {
		gen := filepath.Join(t.TempDir(), name)
		if err := writeCase(gen, cases[name]); err != nil {
			t.Fatal(err)
		}
		ents, err := os.ReadDir(gen)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			want, _ := os.ReadFile(filepath.Join(gen, e.Name()))
			got, err := os.ReadFile(filepath.Join("testdata", name, e.Name()))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("testdata/%s/%s is not what gen_test.go generates: run go test -update", name, e.Name())
			}
		}
	}
}

// TestRender_Reproducible renders the same experiment twice, in two
// directories, and compares the notes and the plots byte for byte.
func TestRender_Reproducible(t *testing.T) {
	for _, name := range caseNames {
		a, b := copyCase(t, name), copyCase(t, name)
		if _, err := Render(a); err != nil {
			t.Fatal(err)
		}
		if _, err := Render(b); err != nil {
			t.Fatal(err)
		}
		// Rendering over the existing outputs changes nothing either.
		if _, err := Render(b); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{expdir.NoteFile, expdir.PlotFile} {
			x, _ := os.ReadFile(filepath.Join(a, f))
			y, _ := os.ReadFile(filepath.Join(b, f))
			if len(x) == 0 || !bytes.Equal(x, y) {
				t.Errorf("%s: %s differs between two renderings (%d and %d bytes)", name, f, len(x), len(y))
			}
		}
	}
}

func TestLoad_NoMeta(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(dir)
	if !errors.Is(err, ErrNotExperiment) || !strings.Contains(err.Error(), "just pairs") {
		t.Errorf("Load without meta.json: %v, want ErrNotExperiment saying to run just pairs", err)
	}
}

func TestLoad_NoRuns(t *testing.T) {
	dir := copyCase(t, "same")
	if err := os.Remove(filepath.Join(dir, expdir.RunsFile)); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	if !errors.Is(err, ErrNoRuns) || !strings.Contains(err.Error(), "just pairs before=HEAD~1 after=HEAD") {
		t.Errorf("Load without runs.jsonl: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, expdir.RunsFile), []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); !errors.Is(err, ErrNoRuns) {
		t.Errorf("Load with no readable run: %v", err)
	}
}

func TestLoad_BadLine(t *testing.T) {
	dir := copyCase(t, "same")
	path := filepath.Join(dir, expdir.RunsFile)
	b, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(b), "\n")
	lines = slices.Insert(lines, 2, "{\"pair\": \"two\"}\n")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Warnings) != 1 || !strings.HasPrefix(e.Warnings[0].Error(), "runs.jsonl:3: ") {
		t.Errorf("warnings %v, want one for runs.jsonl:3", e.Warnings)
	}
	if len(e.Runs) != 24 {
		t.Errorf("%d runs, want the other 24", len(e.Runs))
	}
}

func TestLoad_BadCriteria(t *testing.T) {
	dir := copyCase(t, "same")
	if err := os.WriteFile(filepath.Join(dir, expdir.CriteriaFile), []byte("time.max_worse = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "criteria:1:") {
		t.Errorf("Load with a bad criteria line: %v", err)
	}
}

// TestLoad_LooksBudget checks that an experiment is judged by the
// sequential rule it ran with: meta.json's looks_budget "nominal" spends
// the nominal error, none (experiments before 2026-12-07) the fixed rule's
// at the bound, and a name this harness does not know is an error that
// says so.
func TestLoad_LooksBudget(t *testing.T) {
	for _, tc := range []struct {
		budget  string
		atBound bool
		err     string
	}{
		{expdir.LooksNominal, false, ""},
		{"", true, ""},
		{"spent", false, `looks_budget "spent" is not a rule this harness knows`},
	} {
		dir := copyCase(t, "same")
		d := expdir.Dir(dir)
		m, err := d.Meta()
		if err != nil {
			t.Fatal(err)
		}
		m.MaxPairs, m.LooksBudget = 20, tc.budget
		if err := d.WriteMeta(&m); err != nil {
			t.Fatal(err)
		}
		e, err := Load(dir)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("looks_budget %q: error %v, want one saying %q", tc.budget, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("looks_budget %q: %v", tc.budget, err)
		}
		if l := e.Report.Options.Looks; l.AtBound != tc.atBound || l.First != m.Pairs || l.Last != 20 {
			t.Errorf("looks_budget %q: judged with %+v, want AtBound %v, First %d, Last 20", tc.budget, l, tc.atBound, m.Pairs)
		}
	}
}
