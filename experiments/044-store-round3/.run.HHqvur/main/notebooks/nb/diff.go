package nb

import (
	"fmt"
	"strings"
)

// diffContext is how many unchanged lines Diff shows around a change.
const diffContext = 2

// maxDiffCells bounds the work of the line diff; longer texts are shown
// whole, old then new.
const maxDiffCells = 4 << 20

// Diff returns a line diff of a against b: unchanged lines start with two
// spaces, removed ones with "- ", added ones with "+ ", and runs of
// unchanged lines far from any change are cut to "  …".
func Diff(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(x)*len(y) > maxDiffCells {
		return indent(a, "- ") + "\n" + indent(b, "+ ")
	}
	// lcs[i][j] is the length of the longest common subsequence of x[i:], y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var ops []line
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, line{' ', x[i]})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, line{'-', x[i]})
			i++
		default:
			ops = append(ops, line{'+', y[j]})
			j++
		}
	}
	near := make([]bool, len(ops))
	for k, o := range ops {
		if o.op != ' ' {
			for d := max(0, k-diffContext); d <= min(len(ops)-1, k+diffContext); d++ {
				near[d] = true
			}
		}
	}
	var w strings.Builder
	cut := false
	for k, o := range ops {
		if !near[k] {
			if !cut {
				w.WriteString("  …\n")
				cut = true
			}
			continue
		}
		cut = false
		fmt.Fprintf(&w, "%c %s\n", o.op, o.text)
	}
	return strings.TrimSuffix(w.String(), "\n")
}
