package pairs

import (
	"fmt"
	"strings"
	"testing"

	"workbench/experiments/lab/suite"
)

func TestSchedule_ABBA(t *testing.T) {
	ws := []suite.Workload{{Name: "a"}, {Name: "b"}}
	var got []string
	for _, c := range Schedule(3, ws) {
		got = append(got, fmt.Sprintf("%d%d%s:%s", c.Pair, c.Position, c.Side, c.Workload.Name))
	}
	// ABBA by pair; within a pair, each workload's two sides back to back.
	want := "11before:a 12after:a 11before:b 12after:b " +
		"21after:a 22before:a 21after:b 22before:b " +
		"31before:a 32after:a 31before:b 32after:b"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}
