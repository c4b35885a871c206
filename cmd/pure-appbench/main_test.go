package main

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestRotated: round r starts with side r mod n, every side once.
func TestRotated(t *testing.T) {
	sides := []string{"a", "b", "c"}
	for r, want := range [][]string{{"a", "b", "c"}, {"b", "c", "a"}, {"c", "a", "b"}, {"a", "b", "c"}} {
		if got := rotated(sides, r); !slices.Equal(got, want) {
			t.Errorf("round %d: %v, want %v", r, got, want)
		}
	}
	if !slices.Equal(sides, []string{"a", "b", "c"}) {
		t.Errorf("rotated changed its argument: %v", sides)
	}
}

// TestRun_BadFlags: bad flags are refused before anything is loaded,
// saying what to do.
func TestRun_BadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--parts", "tpcc,nope"}, `unknown part "nope"`},
		{[]string{"--rounds", "0"}, "at least 1"},
		{[]string{"--warmup-tx", "-1"}, "--warmup-tx must not be negative"},
		{[]string{"--parts", "http"}, "needs --bin DIR"},
	} {
		err := run(context.Background(), c.args, &strings.Builder{}, &strings.Builder{})
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v: %v, want an error saying %q", c.args, err, c.says)
		}
	}
}
