package kvbench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// RawBlockSize is the size of each append of the raw writer and the probe.
const RawBlockSize = 4096

// rawWriter appends RawBlockSize bytes to a growing file and calls
// fdatasync after each append: the most a single writer can commit per
// second on the device, and the same kind of I/O as a store's commit (an
// append that grows the file, then fdatasync). It ignores the key and
// value it is given. Puts are serialised; the contender is measured with
// one writer only.
type rawWriter struct {
	mu    sync.Mutex
	f     *os.File
	off   int64
	block []byte
	syncs uint64
}

func openRaw(dir string) (Writer, error) {
	f, err := os.OpenFile(filepath.Join(dir, "raw.log"), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	block := make([]byte, RawBlockSize)
	for i := range block {
		block[i] = byte(i)
	}
	return &rawWriter{f: f, block: block}, nil
}

func (r *rawWriter) Put(_, _ []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.appendSync()
}

// appendSync appends one block and syncs it; r.mu must be held.
func (r *rawWriter) appendSync() error {
	if _, err := r.f.WriteAt(r.block, r.off); err != nil {
		return err
	}
	r.off += int64(len(r.block))
	r.syncs++
	return fdatasync(r.f)
}

func (r *rawWriter) Syncs() (uint64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.syncs, true
}

func (r *rawWriter) Close() error { return r.f.Close() }

func fdatasync(f *os.File) error {
	for {
		err := unix.Fdatasync(int(f.Fd()))
		if err != unix.EINTR {
			return err
		}
	}
}

// ProbeResult is the device's fsync latency as measured by Probe.
type ProbeResult struct {
	// N is the number of append+fdatasync calls timed.
	N int
	// P50 and P99 are the median and 99th percentile of their latency
	// (nearest rank).
	P50, P99 time.Duration
}

// Probe measures the device's sync latency under dir: n times, append
// RawBlockSize bytes to a fresh file and call fdatasync, timing each pair.
// The file is removed afterwards. Run it at the start of every round: a
// device whose syncs slow down during a run (SD cards do) shows it here.
func Probe(dir string, n int) (ProbeResult, error) {
	if n <= 0 {
		return ProbeResult{}, fmt.Errorf("probe: need at least one sync, got %d", n)
	}
	tmp, err := os.MkdirTemp(dir, "probe-")
	if err != nil {
		return ProbeResult{}, fmt.Errorf("probe: %w", err)
	}
	defer os.RemoveAll(tmp)
	w, err := openRaw(tmp)
	if err != nil {
		return ProbeResult{}, fmt.Errorf("probe: %w", err)
	}
	r := w.(*rawWriter)
	defer r.Close()
	lat := make([]time.Duration, n)
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range lat {
		t := time.Now()
		if err := r.appendSync(); err != nil {
			return ProbeResult{}, fmt.Errorf("probe: append+fdatasync in %s: %w", tmp, err)
		}
		lat[i] = time.Since(t)
	}
	slices.Sort(lat)
	return ProbeResult{N: n, P50: Percentile(lat, 0.50), P99: Percentile(lat, 0.99)}, nil
}
