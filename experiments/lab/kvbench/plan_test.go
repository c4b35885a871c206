package kvbench

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestRotate(t *testing.T) {
	xs := []string{"a", "b", "c"}
	for r, want := range []string{"abc", "bca", "cab", "abc", "bca"} {
		if got := strings.Join(Rotate(xs, r), ""); got != want {
			t.Errorf("Rotate(abc, %d) = %s, want %s", r, got, want)
		}
	}
	if got := strings.Join(Rotate(xs, -1), ""); got != "cab" {
		t.Errorf("Rotate(abc, -1) = %s, want cab", got)
	}
	if strings.Join(xs, "") != "abc" {
		t.Error("Rotate modified its input")
	}
	if Rotate([]int(nil), 3) != nil {
		t.Error("Rotate of nothing is not nil")
	}
}

func cellString(c Cell) string {
	if c.Kind == CellWrites {
		return fmt.Sprintf("%s/w%d@%d", c.Contender.Name, c.Writers, c.Position)
	}
	return fmt.Sprintf("%s/reads@%d", c.Contender.Name, c.Position)
}

func planString(cells []Cell) string {
	var s []string
	for _, c := range cells {
		s = append(s, cellString(c))
	}
	return strings.Join(s, " ")
}

func TestPlan_RotatesContenders(t *testing.T) {
	cs := All()
	want := []string{
		// round 0 starts with the first contender ...
		"pure/w1@0 bbolt/w1@1 bbolt-batch/w1@2 pebble/w1@3 fdatasync-4k/w1@4 bare-group/w1@5 bare-group-all/w1@6 " +
			"pure/w8@0 bbolt/w8@1 bbolt-batch/w8@2 pebble/w8@3 bare-group/w8@4 bare-group-all/w8@5 " +
			"pure/reads@0 bbolt/reads@1 pebble/reads@2",
		// ... round 1 with the second, in every workload ...
		"bbolt/w1@0 bbolt-batch/w1@1 pebble/w1@2 fdatasync-4k/w1@3 bare-group/w1@4 bare-group-all/w1@5 pure/w1@6 " +
			"bbolt/w8@0 bbolt-batch/w8@1 pebble/w8@2 bare-group/w8@3 bare-group-all/w8@4 pure/w8@5 " +
			"bbolt/reads@0 pebble/reads@1 pure/reads@2",
		// ... and round 7 with the first again (7 contenders).
		"pure/w1@0 bbolt/w1@1 bbolt-batch/w1@2 pebble/w1@3 fdatasync-4k/w1@4 bare-group/w1@5 bare-group-all/w1@6 " +
			"pure/w8@0 bbolt/w8@1 bbolt-batch/w8@2 pebble/w8@3 bare-group/w8@4 bare-group-all/w8@5 " +
			"pure/reads@0 bbolt/reads@1 pebble/reads@2",
	}
	for i, r := range []int{0, 1, 7} {
		if got := planString(Plan(cs, []int{1, 8}, r, OnlyAll)); got != want[i] {
			t.Errorf("round %d:\n got %s\nwant %s", r, got, want[i])
		}
	}
}

// Over as many rounds as there are readers, each reader reads once in
// each position.
func TestPlan_ReadsVisitEveryPosition(t *testing.T) {
	cs := All()
	pos := map[string][]int{}
	for r := range len(cs) {
		for _, c := range Plan(cs, nil, r, OnlyReads) {
			pos[c.Contender.Name] = append(pos[c.Contender.Name], c.Position)
		}
	}
	for name, ps := range pos {
		slices.Sort(ps)
		ps = slices.Compact(ps)
		if len(ps) != 3 {
			t.Errorf("%s read in positions %v over %d rounds, want each of 0..2", name, ps, len(cs))
		}
	}
}

func TestPlan_Only(t *testing.T) {
	cs, err := Parse("pebble,pure")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := planString(Plan(cs, []int{64}, 1, OnlyWrites)), "pure/w64@0 pebble/w64@1"; got != want {
		t.Errorf("writes only = %s, want %s", got, want)
	}
	if got, want := planString(Plan(cs, []int{64}, 0, OnlyReads)), "pebble/reads@0 pure/reads@1"; got != want {
		t.Errorf("reads only = %s, want %s", got, want)
	}
}

func TestParse(t *testing.T) {
	for _, bad := range []string{"", ",", "pure,nope", "pure,pure"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) did not fail", bad)
		}
	}
	cs, err := Parse(" bbolt-batch, fdatasync-4k ")
	if err != nil || len(cs) != 2 || cs[0].Name != NameBboltBatch || cs[1].Name != NameRaw {
		t.Errorf("Parse = %v, %v", cs, err)
	}
}

func TestParseWorkloadCommit(t *testing.T) {
	for _, w := range []int{1, 8, 64} {
		if got, ok := ParseWorkloadCommit(WorkloadCommit(w)); !ok || got != w {
			t.Errorf("ParseWorkloadCommit(%s) = %d, %v", WorkloadCommit(w), got, ok)
		}
	}
	for _, bad := range []string{WorkloadPointGet, "durable-commit-", "durable-commit-0", "durable-commit-x"} {
		if _, ok := ParseWorkloadCommit(bad); ok {
			t.Errorf("ParseWorkloadCommit(%s) accepted", bad)
		}
	}
}
