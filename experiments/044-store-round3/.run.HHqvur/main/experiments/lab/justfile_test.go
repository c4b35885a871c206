package lab

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// `just --list` shows only the comment line directly above a recipe: for
// every recipe that line is a one-line summary, a sentence of its own (not
// the tail of a longer comment, not only its keys).
func TestJustfile_EveryRecipeHasASummary(t *testing.T) {
	b, err := os.ReadFile("../../justfile")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	recipe := regexp.MustCompile(`^([a-z][a-z0-9-]*)( [^:]*)?:( |$)`)
	n := 0
	for i, l := range lines {
		m := recipe.FindStringSubmatch(l)
		if m == nil || strings.HasPrefix(l, "set ") {
			continue
		}
		n++
		if i == 0 || !strings.HasPrefix(lines[i-1], "# ") {
			t.Errorf("recipe %s: no comment line directly above it", m[1])
			continue
		}
		sum := strings.TrimPrefix(lines[i-1], "# ")
		if strings.HasPrefix(sum, "Keys:") || sum == "" || sum[0] < 'A' || sum[0] > 'Z' {
			t.Errorf("recipe %s: the line above it, %q, is not a summary that starts a sentence", m[1], sum)
		}
	}
	if n < 8 {
		t.Errorf("found %d recipes in the justfile", n)
	}
}
