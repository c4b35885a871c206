package pairs

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
	if k := lines[1].Key(); k != (CellKey{Pair: 2, Side: After, Workload: "b"}) {
		t.Errorf("key %v", k)
	}
}

func TestReadRuns_BadLine(t *testing.T) {
	_, _, err := ReadRuns(strings.NewReader("{}\n\nnot json\n{}\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "line 3:") {
		t.Fatalf("got %v", err)
	}
}
