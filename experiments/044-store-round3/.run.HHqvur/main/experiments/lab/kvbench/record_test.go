package kvbench

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"workbench/perfcount"
)

// The field names of a runs.jsonl line: changing them breaks every note
// generated from old runs.
var recordFields = []string{
	"allocs_per_op", "cell", "contender", "cpu_per_op_s", "experiment",
	"fs_type", "fsync_p50_s", "fsync_p99_s", "fsync_probe_n", "go_version",
	"keys", "load_s", "machine", "ops", "ops_per_s", "p50_s", "p99_s",
	"position", "readers", "round", "seconds", "syncs_per_op", "value_bytes",
	"workload", "writers",
}

func TestRecord_Schema(t *testing.T) {
	rec := Record{Experiment: "x", Contender: NamePure, Workload: WorkloadCommit(8), Writers: 8, ValueBytes: 16, LoadS: 1.5, Machine: perfcount.Machine{NumCPU: 2}}
	rec.SetProbe(ProbeResult{N: 200, P50: 400 * time.Microsecond, P99: time.Millisecond})
	rec.SetResult(Result{
		Ops: 1000, Elapsed: 2 * time.Second, CPU: 500 * time.Millisecond,
		HasLatency: true, P50: time.Millisecond, P99: 3 * time.Millisecond,
		Syncs: 250, SyncsKnown: true, Mallocs: 5000,
	})
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, recordFields) {
		t.Fatalf("fields = %v\nwant %v", keys, recordFields)
	}
	for k, want := range map[string]float64{
		"ops": 1000, "seconds": 2, "ops_per_s": 500, "p50_s": 0.001, "p99_s": 0.003,
		"cpu_per_op_s": 0.0005, "syncs_per_op": 0.25, "allocs_per_op": 5,
		"fsync_probe_n": 200, "fsync_p50_s": 0.0004, "fsync_p99_s": 0.001,
	} {
		if got := m[k].(float64); got != want {
			t.Errorf("%s = %v, want %v", k, got, want)
		}
	}

	// Without latencies or a sync count, those fields are null, not 0.
	rec.SetResult(Result{Ops: 10, Elapsed: time.Second})
	b, _ = json.Marshal(rec)
	for _, k := range []string{`"p50_s":null`, `"p99_s":null`, `"syncs_per_op":null`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("%s missing from %s", k, b)
		}
	}
}

func TestReadRecords_BadLineSkipped(t *testing.T) {
	in := `{"contender":"pure","ops":1}

not json
{"contender":"pebble","ops":2}
`
	recs, err := ReadRecords(strings.NewReader(in))
	if len(recs) != 2 || recs[1].Contender != "pebble" || recs[1].Ops != 2 {
		t.Errorf("records = %+v", recs)
	}
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("error = %v, want one naming line 3", err)
	}
}
