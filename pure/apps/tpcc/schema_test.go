package tpcc

import (
	"fmt"
	"testing"
)

// TestAppendDigits: every width from 1 to 18, with values at the edges
// (0, 9..9) and between, appends what fmt's zero-padded %d does, after
// whatever the buffer held.
func TestAppendDigits(t *testing.T) {
	pow := int64(1)
	for w := 1; w <= 18; w++ {
		pow *= 10
		for _, v := range []int64{0, 1, 7, pow / 10, pow/10 + 3, pow / 3, pow - 2, pow - 1} {
			got := string(appendDigits([]byte("x/"), v, w))
			if want := fmt.Sprintf("x/%0*d", w, v); got != want {
				t.Fatalf("width %d, %d: %q, want %q", w, v, got, want)
			}
		}
	}
}
