package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNote_Golden renders the note of a small fixture and compares it
// with testdata/note.md.golden; on a mismatch it writes note.md.got beside.
func TestNote_Golden(t *testing.T) {
	dir := t.TempDir()
	in, err := os.ReadFile("testdata/runs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "runs.jsonl"), in, 0o644)
	os.WriteFile(filepath.Join(dir, findingsFile), []byte("A smoke run on a busy machine.\n"), 0o644)
	if err := run(t.Context(), []string{"note", dir}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "note.md"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/note.md.golden")
	if err != nil || !bytes.Equal(got, want) {
		os.WriteFile("testdata/note.md.got", got, 0o644)
		t.Fatalf("note differs from testdata/note.md.golden (%v): see testdata/note.md.got", err)
	}
	os.Remove("testdata/note.md.got")
	// The figures the fixture was made for: ratios are medians of
	// per-round ratios (200000/60000 and 183333/62000 give 3.15).
	for _, want := range [][]string{
		{"| small GETs: 1.7x net/http", "3.15x", "| met"},
		{"| small GETs: at least fasthttp", "2.00x", "|      1 |", "| met"},
		{"| peak RSS at most half of net/http's (small GETs)", "0.60x", "| missed"},
		{"| pipelined GETs", "| no data"}, // ran, but fasthttp-memory has no runs of it
		{"| 1 MiB GETs", "| not run"},     // no run of big-8c at all
		{"round 2, get-64c, fasthttp-memory: start fasthttp-memory"},
	} {
		found := false
		for line := range strings.Lines(string(got)) {
			if strings.Contains(line, want[0]) {
				found = true
				for _, w := range want[1:] {
					if !strings.Contains(line, w) {
						t.Errorf("line %q lacks %q", strings.TrimSpace(line), w)
					}
				}
			}
		}
		if !found {
			t.Errorf("note has no line with %q", want[0])
		}
	}
}

// TestNote_Before: records of pure-serve-before add a column with its
// ratios to the targets table, computed like pure-serve's.
func TestNote_Before(t *testing.T) {
	recs := fixtureRecords(t)
	for _, r := range recs {
		if r.ID == subject {
			r.ID, r.OKPerServerCPU = beforeID, r.OKPerServerCPU/2
			recs = append(recs, r)
		}
	}
	note := renderNote(t.TempDir(), recs)
	for line := range strings.Lines(note) {
		if strings.HasPrefix(line, "| small GETs: 1.7x net/http") {
			// pure-serve's ratio, then pure-serve-before's: half of it
			// (each rounded to two places, so within 0.006); then
			// nginx's (the fixture's round 1: 100,000 against 60,000).
			var cols []string
			for _, f := range strings.Split(line, "|") {
				cols = append(cols, strings.TrimSpace(f))
			}
			var after, before float64
			_, err1 := fmt.Sscanf(cols[5], "%fx", &after)
			_, err2 := fmt.Sscanf(cols[6], "%fx", &before)
			if err1 != nil || err2 != nil || cols[7] != "1.67x" || cols[8] != ">= 1.7x" || math.Abs(before-after/2) > 0.006 {
				t.Errorf("target line %q: want pure-serve's ratio, then before's (half of it), nginx's, then the need", strings.TrimSpace(line))
			}
			return
		}
	}
	t.Errorf("no small GETs target line in:\n%s", note)
}

func TestNote_RefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	if err := writeNote(dir); err == nil || !strings.Contains(err.Error(), "run pure-http first") {
		t.Errorf("no runs.jsonl: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "runs.jsonl"), []byte("{\"schema\":1}\n{not json\n"), 0o644)
	if err := writeNote(dir); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad line: %v, want an error naming line 2", err)
	}
	os.WriteFile(filepath.Join(dir, "runs.jsonl"), []byte("{\"schema\":7}\n"), 0o644)
	if err := writeNote(dir); err == nil || !strings.Contains(err.Error(), "schema 7") {
		t.Errorf("other schema: %v", err)
	}
}

// TestNote_Build: records that say how the servers were built give the
// note a line saying so; older records without it give none.
func TestNote_Build(t *testing.T) {
	recs := fixtureRecords(t)
	if note := renderNote(t.TempDir(), recs); strings.Contains(note, "Binaries ") {
		t.Errorf("records without a build gave a Binaries line:\n%s", note)
	}
	for i := range recs {
		recs[i].Build, recs[i].SettleS = staticBuild, 1
	}
	if note := renderNote(t.TempDir(), recs); !strings.Contains(note, "Binaries "+staticBuild+" (statically linked") {
		t.Errorf("records with build %q gave no line naming it:\n%s", staticBuild, note)
	}
	if note := renderNote(t.TempDir(), recs); !strings.Contains(note, "the server rested 1s") {
		t.Errorf("records with a rest of 1 s do not say so:\n%s", note)
	}
}

// fixtureRecords reads testdata/runs.jsonl.
func fixtureRecords(t *testing.T) []Record {
	t.Helper()
	f, err := os.Open("testdata/runs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// A verdict says when the rounds split around the target, whichever way
// the median falls.
func TestTargetVerdict_SplitRounds(t *testing.T) {
	atLeast := target{need: 1.5}
	atMost := target{need: 0.5, atMost: true}
	for _, c := range []struct {
		t    target
		r    float64
		rs   []float64
		want string
	}{
		{atLeast, 1.6, []float64{1.6, 1.7, 1.55}, "met"},
		{atLeast, 1.54, []float64{1.25, 1.54, 1.6}, "met, 2 of 3 rounds"},
		{atLeast, 1.41, []float64{1.41, 1.25, 1.52}, "missed, met in 1 of 3 rounds"},
		{atLeast, 1.2, []float64{1.2, 1.1, 1.3}, "missed"},
		{atMost, 0.49, []float64{0.49, 0.51, 0.48}, "met, 2 of 3 rounds"},
		{atMost, 0.51, []float64{0.51, 0.52, 0.50}, "missed, met in 1 of 3 rounds"},
		{atLeast, math.NaN(), nil, "no data"},
	} {
		if got := c.t.verdict(c.r, c.rs); got != c.want {
			t.Errorf("need %v (at most %v), median %v of %v: %q, want %q", c.t.need, c.t.atMost, c.r, c.rs, got, c.want)
		}
	}
}
