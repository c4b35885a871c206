package note

import (
	"strings"
	"testing"

	"workbench/experiments/lab/expdir"
)

// What changed names each commit and the code changed outside
// experiments/, says when no code changed, and calls an A/A run one.
func TestWhatChanged(t *testing.T) {
	e := &Experiment{Meta: expdir.Meta{
		Before: expdir.Build{Commit: "aaaaaaaaaaaaaaaa"}, After: expdir.Build{Commit: "bbbbbbbbbbbbbbbb"},
		Changes: &expdir.Changes{Commits: []expdir.Commit{{Hash: "bbbbbbb", Subject: "store: faster gets"}}, Diffstat: "2 files changed, 10 insertions(+), 3 deletions(-)"},
	}}
	if got := e.whatChanged(); !strings.Contains(got, "1 commit (`bbbbbbb` store: faster gets)") || !strings.Contains(got, "code: 2 files changed") {
		t.Errorf("with code: %q", got)
	}
	e.Meta.Changes.Diffstat = ""
	if got := e.whatChanged(); !strings.Contains(got, "no code changed") {
		t.Errorf("experiments only: %q", got)
	}
	e.Meta.Changes = nil
	if got := e.whatChanged(); !strings.Contains(got, "not recorded") {
		t.Errorf("not recorded: %q", got)
	}
	e.Meta.After.Commit = e.Meta.Before.Commit
	if got := e.whatChanged(); !strings.Contains(got, "A/A run") || aaTitle(e.Meta) != " (A/A)" {
		t.Errorf("A/A: %q, title %q", got, aaTitle(e.Meta))
	}
}

func TestChangeCell_SmallChangesKeepTheirDigits(t *testing.T) {
	for ratio, want := range map[float64]string{1.02: "+2.00 %", 0.9944: "−0.56 %", 1.0000021: "+0.00021 %", 0.99999: "−0.0010 %", 1: "0.00 %"} {
		if got := changeCell(ratio); got != want {
			t.Errorf("changeCell(%v) = %q, want %q", ratio, got, want)
		}
	}
}

func TestShortName_GenericsShortened(t *testing.T) {
	long := "workbench/pure/store.(*Tree[go.shape.string,go.shape.[]uint8]).getWithAVeryLongName"
	if got, want := shortName(long), "workbench/pure/store.(*Tree[…]).getWithAVeryLongName"; got != want {
		t.Errorf("shortName = %q, want %q", got, want)
	}
	if short := "sort.Ints"; shortName(short) != short {
		t.Errorf("a short name was changed: %q", shortName(short))
	}
}
