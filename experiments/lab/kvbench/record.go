package kvbench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"workbench/perfcount"
)

// Record is the JSON line written for each measurement of a cell (a reads
// cell writes two: point-get and range-100). Field names are the schema of
// runs.jsonl; nullable fields are pointers.
type Record struct {
	// Experiment names the experiment the line belongs to.
	Experiment string `json:"experiment"`
	// Round is the round, from 0.
	Round int `json:"round"`
	// Cell is the place of the cell in the round's order, from 0.
	Cell int `json:"cell"`
	// Start is when the measurement began, in UTC (RFC 3339, to the
	// second), so a note can say when its cells ran; empty in lines
	// recorded before it was added.
	Start string `json:"start,omitempty"`
	// Position is the contender's place among those running this
	// workload in this round, from 0 (Cell.Position).
	Position int `json:"position"`
	// Contender is the contender's name (Contender.Name).
	Contender string `json:"contender"`
	// Workload is durable-commit-W, point-get or range-100.
	Workload string `json:"workload"`
	// Writers is the number of concurrent writers (0 for reads).
	Writers int `json:"writers"`
	// Readers is the number of concurrent readers (0 for writes).
	Readers int `json:"readers"`
	// Keys is the number of keys loaded before reading (0 for writes).
	Keys int `json:"keys"`
	// ValueBytes is the size of each value written or read.
	ValueBytes int `json:"value_bytes"`
	// LoadS is the wall time of the untimed bulk load and warm-up scan
	// (Load; reads only).
	LoadS float64 `json:"load_s,omitempty"`
	// Ops is the number of operations completed.
	Ops int64 `json:"ops"`
	// Seconds is the wall time they took.
	Seconds float64 `json:"seconds"`
	// OpsPerS is Ops / Seconds.
	OpsPerS float64 `json:"ops_per_s"`
	// P50S and P99S are the operations' latency percentiles in seconds,
	// null when single operations were not timed (reads).
	P50S *float64 `json:"p50_s"`
	P99S *float64 `json:"p99_s"`
	// CPUPerOpS is the process's user+system CPU seconds per operation.
	CPUPerOpS float64 `json:"cpu_per_op_s"`
	// SyncsPerOp is the contender's syncs per operation, null when the
	// contender cannot count them.
	SyncsPerOp *float64 `json:"syncs_per_op"`
	// AllocsPerOp is the process's heap allocations per operation.
	AllocsPerOp float64 `json:"allocs_per_op"`
	// FsyncProbeN, FsyncP50S and FsyncP99S are the round's device probe
	// (Probe) taken before its first cell.
	FsyncProbeN int     `json:"fsync_probe_n"`
	FsyncP50S   float64 `json:"fsync_p50_s"`
	FsyncP99S   float64 `json:"fsync_p99_s"`
	// FSType is the file system of the store directories ("ext4").
	FSType string `json:"fs_type"`
	// GoVersion is the Go release the benchmark was built with.
	GoVersion string `json:"go_version"`
	// Machine describes the machine.
	Machine perfcount.Machine `json:"machine"`
}

// SetResult fills the measured fields of rec from r.
func (rec *Record) SetResult(r Result) {
	rec.Ops = r.Ops
	rec.Seconds = r.Elapsed.Seconds()
	rec.OpsPerS = r.OpsPerSecond()
	rec.P50S, rec.P99S = nil, nil
	if r.HasLatency {
		p50, p99 := r.P50.Seconds(), r.P99.Seconds()
		rec.P50S, rec.P99S = &p50, &p99
	}
	rec.CPUPerOpS = r.CPUPerOp()
	rec.SyncsPerOp = nil
	if v, ok := r.SyncsPerOp(); ok {
		rec.SyncsPerOp = &v
	}
	rec.AllocsPerOp = r.AllocsPerOp()
}

// SetProbe fills the round's probe fields of rec.
func (rec *Record) SetProbe(p ProbeResult) {
	rec.FsyncProbeN = p.N
	rec.FsyncP50S, rec.FsyncP99S = p.P50.Seconds(), p.P99.Seconds()
}

// ReadRecords reads JSON lines of Records from r. Blank lines are skipped.
// A line that does not parse is reported with its line number and
// skipped; the good lines are returned with the joined errors.
func ReadRecords(r io.Reader) ([]Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var recs []Record
	var errs []error
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", n, err))
			continue
		}
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, err)
	}
	return recs, errors.Join(errs...)
}
