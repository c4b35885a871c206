package expdir

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// A Line is one line of runs.jsonl: a Run plus the fields this runner
// adds. Because Run is embedded, its fields sit at the top level of
// the JSON object, and a reader that decodes a line into a Run simply
// ignores the additions.
//
// One line is one run: one workload on one side of one pair, made of the
// workload's measurements (typically a native one for time and a callgrind
// one for instructions). Its Run fields merge them:
//
//   - Start is the first measurement's start, Wall the sum of their walls.
//   - Metrics, PeakRSS included, come from the first perf-backend
//     measurement, and Ops is that measurement's operations (else the first
//     measurement's). Times under callgrind mean nothing and are dropped.
//   - Counts are every measurement's counts, in order; each Count's PerOp is
//     over the operations of the measurement that counted it.
//   - Machine is as the first measurement reported it.
//   - ExitCode and StderrTail are those of the first failed measurement; a
//     measurement that exited 0 but gave no usable result (see Error) makes
//     ExitCode -1, as does one killed by a signal. The counts and metrics of
//     the measurements that succeeded are kept.
type Line struct {
	Run
	// Measurements describe each invocation of the subject, in order.
	Measurements []Measurement `json:"measurements,omitempty"`
	// Controls are the controls in force for this run.
	Controls *RunControls `json:"controls,omitempty"`
	// Error says why the harness got no measurement from an invocation (it
	// did not start, timed out, or printed no usable result).
	Error string `json:"error,omitempty"`
}

// A Measurement is one invocation of the subject within a run.
type Measurement struct {
	Backend string `json:"backend"`
	// Args are the subject's arguments after the program name.
	Args  []string      `json:"args"`
	Start time.Time     `json:"start"`
	Wall  time.Duration `json:"wall_ns"`
	// Ops is the number of operations measured, over all repeats.
	Ops      int64 `json:"ops"`
	ExitCode int   `json:"exit_code"`
	// PeakRSS is the peak resident set of the subject and its children, in
	// bytes (for the perf backend; under valgrind it would be valgrind's).
	PeakRSS int64  `json:"peak_rss_bytes,omitempty"`
	Error   string `json:"error,omitempty"`
	// FloorNsPerOp is, for the perf backend, the wall time per operation
	// of the invocation's fastest region, in nanoseconds.
	FloorNsPerOp float64 `json:"floor_ns_per_op,omitempty"`
	// PairedTime is, for a process of a gated round, its round's paired
	// time: its regions' time over the geometric mean of its own and the
	// other side's process's, from the interquartile mean of the
	// round's region-by-region log ratios (the run's paired_time pools
	// the regions of all its rounds).
	PairedTime float64 `json:"paired_time,omitempty"`
	// LoadArgs are, for a measurement of a server under load (a suite
	// line with load=), pure-load's arguments, the same for each window
	// or count (the server's address last).
	LoadArgs []string `json:"load_args,omitempty"`
	// Windows are, for a timed measurement of a server, its windows of
	// load, in the order they ran.
	Windows []Window `json:"windows,omitempty"`
	// LoadAvg1 is, for a timed measurement of a server, the machine's
	// 1-minute load average when its windows ended (/proc/loadavg).
	LoadAvg1 *float64 `json:"load_avg_1,omitempty"`
	// Counts are, for a counted measurement of a server (callgrind), the
	// process's own counts, over its whole life up to the dump; the run's
	// counts are differences of two such processes' (see Run.Counts).
	Counts []Count `json:"counts,omitempty"`
}

// A Window is one stretch of load on a server in a timed measurement of a
// server under load: one pure-load process, its counts and latencies as
// it printed them, and the server's CPU time over it.
type Window struct {
	Start time.Time `json:"start"`
	// Wall is pure-load's duration: from its start until its last
	// connection stopped.
	Wall time.Duration `json:"wall_ns"`
	// OK counts 2xx answers, Non2xx other answers, Errors the requests
	// that failed (pure-load's errors, all kinds).
	OK     int64 `json:"ok"`
	Non2xx int64 `json:"non2xx"`
	Errors int64 `json:"errors"`
	// ServerCPU is the server's CPU seconds over the window, user and
	// system, all threads: its process CPU clock read before pure-load
	// started and after it ended.
	ServerCPU float64 `json:"server_cpu_s"`
	// P50 and P99 are pure-load's latency percentiles, in seconds.
	P50 float64 `json:"p50_s"`
	P99 float64 `json:"p99_s"`
	// ClientCPU is pure-load's own CPU seconds.
	ClientCPU float64 `json:"client_cpu_s"`
}

// Failed reports whether any measurement of the run failed.
func (l *Line) Failed() bool { return l.ExitCode != 0 || l.Error != "" }

// ReadRuns reads the lines of a runs.jsonl stream. A last line without its
// newline is the trace of an interrupted write: it is not returned, and
// complete is the number of bytes up to the end of the last whole line. A
// whole line that does not parse is an error naming its line number.
func ReadRuns(r io.Reader) (lines []Line, complete int64, err error) {
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		b, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return lines, complete, nil // b, if any, is a partial line
		}
		if err != nil {
			return lines, complete, err
		}
		complete += int64(len(b))
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		var l Line
		if err := json.Unmarshal(b, &l); err != nil {
			return lines, complete, fmt.Errorf("line %d: %w", n, err)
		}
		lines = append(lines, l)
	}
}

// RunsWriter appends lines to runs.jsonl, syncing each to disk before the
// next run starts, so an interruption loses at most the run in progress.
type RunsWriter struct {
	f   *os.File
	end int64 // the length of the whole lines written
}

// OpenRuns opens path for appending, first cutting off a partial last line
// (complete is its length without it, as ReadRuns returns it).
func OpenRuns(path string, complete int64) (*RunsWriter, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(complete); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(complete, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return &RunsWriter{f: f, end: complete}, nil
}

// Size returns the length of the file's whole lines: where the next
// OpenRuns of it starts.
func (w *RunsWriter) Size() int64 { return w.end }

// Append writes l as one line and syncs it to disk.
func (w *RunsWriter) Append(l *Line) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if _, err := w.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing %s: %w", w.f.Name(), err)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", w.f.Name(), err)
	}
	w.end += int64(len(b)) + 1
	return nil
}

// Close closes the file.
func (w *RunsWriter) Close() error { return w.f.Close() }
