package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"workbench/experiments/lab/kvbench"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name, writing testdata/name.got on a
// mismatch (and the file itself with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		os.WriteFile(path+".got", []byte(got), 0o644)
		t.Errorf("%s differs from the golden file; see %s.got (go test -update rewrites it)", path, path)
	}
}

func TestRun_BadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-only", "both"},
		{"-contenders", "pure,sqlite"},
		{"-writers", "1,0"},
		{"-rounds", "0"},
		{"-duration", "0s"},
		{"-keys", "50"},
		{"-probe", "0"},
		{"extra"},
		{"note"},
	} {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), args, &stdout, &stderr); err == nil {
			t.Errorf("run(%q) did not fail", args)
		}
	}
}

func TestRun_Help(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"-h"}, &stdout, &stderr); err != flag.ErrHelp {
		t.Fatalf("run(-h) = %v, want flag.ErrHelp", err)
	}
	for _, c := range kvbench.All() {
		if !strings.Contains(stderr.String(), c.Name) {
			t.Errorf("help does not list contender %s", c.Name)
		}
	}
}

// TestRun_Tiny runs two tiny rounds end to end and checks the lines'
// shape and order, and that the note is written from them. Nothing about
// speed is checked.
func TestRun_Tiny(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "runs.jsonl")
	var stdout, stderr bytes.Buffer
	args := []string{"-out", out, "-rounds", "2", "-duration", "20ms", "-writers", "1,2",
		"-keys", "300", "-probe", "3", "-contenders", "pure,fdatasync-4k,pebble"}
	began := time.Now()
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := kvbench.ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.Contender+"/"+r.Workload)
		if r.Ops <= 0 || r.Seconds <= 0 || r.FsyncProbeN != 3 || r.FsyncP50S <= 0 || r.Machine.NumCPU == 0 || r.Experiment != experimentName {
			t.Errorf("line %+v is incomplete", r)
		}
		if st, err := time.Parse(time.RFC3339, r.Start); err != nil || st.Before(began.Truncate(time.Second)) || st.After(time.Now()) {
			t.Errorf("%s %s: start %q (%v), want a UTC time within the run (from %s)", r.Contender, r.Workload, r.Start, err, began.UTC().Format(time.RFC3339))
		}
		if (r.Writers > 0) != (r.P50S != nil) {
			t.Errorf("%s %s: latency present %v, want it for writes only", r.Contender, r.Workload, r.P50S != nil)
		}
	}
	want := "" +
		// round 0
		"pure/durable-commit-1 fdatasync-4k/durable-commit-1 pebble/durable-commit-1 " +
		"pure/durable-commit-2 pebble/durable-commit-2 " +
		"pure/point-get pure/range-100 pebble/point-get pebble/range-100 " +
		// round 1 starts with the second contender
		"fdatasync-4k/durable-commit-1 pebble/durable-commit-1 pure/durable-commit-1 " +
		"pebble/durable-commit-2 pure/durable-commit-2 " +
		"pebble/point-get pebble/range-100 pure/point-get pure/range-100"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("lines:\n got %s\nwant %s", g, want)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind in the output directory: %v", ents)
	}
	if err := run(context.Background(), []string{"note", dir}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	note, err := os.ReadFile(filepath.Join(dir, "note.md"))
	if err != nil || !bytes.Contains(note, []byte("## Targets")) {
		t.Errorf("note.md: %v\n%s", err, note)
	}
}

// TestNote_Golden renders a fixed runs.jsonl of three rounds (one cell
// missing) and compares the note byte for byte; rendering twice gives the
// same bytes.
func TestNote_Golden(t *testing.T) {
	dir := t.TempDir()
	in, err := os.ReadFile(filepath.Join("testdata", "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "runs.jsonl"), in, 0o644)
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"note", dir}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(filepath.Join(dir, "note.md"))
	golden(t, "note.golden.md", string(first))
	if err := run(context.Background(), []string{"note", dir}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if second, _ := os.ReadFile(filepath.Join(dir, "note.md")); !bytes.Equal(first, second) {
		t.Error("the note changed when regenerated from the same lines")
	}
}

// A cancelled run stops without writing a line for a measurement it cut
// short.
func TestRun_Cancelled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"-out", filepath.Join(dir, "runs.jsonl"), "-duration", "1h", "-probe", "1"}, &stdout, &stderr)
	if err != context.Canceled {
		t.Fatalf("run = %v, want context.Canceled", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "runs.jsonl")); len(b) != 0 {
		t.Errorf("lines written after cancellation:\n%s", b)
	}
}
