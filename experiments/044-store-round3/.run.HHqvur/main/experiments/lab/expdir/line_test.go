package expdir

import (
	"strings"
	"testing"
)

func TestReadRuns_PartialLastLine(t *testing.T) {
	in := `{"schema":1,"workload":"a","backend":"perf","side":"before","pair":1}
{"schema":1,"workload":"b","backend":"callgrind","side":"after","pair":2}
{"schema":1,"workl`
	lines, complete, err := ReadRuns(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || complete != int64(strings.LastIndexByte(in, '\n')+1) {
		t.Fatalf("%d lines, complete %d", len(lines), complete)
	}
	if l := lines[1]; l.Pair != 2 || l.Side != "after" || l.Workload != "b" {
		t.Errorf("line 2 read as pair %d %s %s", l.Pair, l.Side, l.Workload)
	}
}

func TestReadRuns_BadLine(t *testing.T) {
	_, _, err := ReadRuns(strings.NewReader("{}\n\nnot json\n{}\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "line 3:") {
		t.Fatalf("got %v", err)
	}
}
