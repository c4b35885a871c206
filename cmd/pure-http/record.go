package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// recordSchema is the version of Record's JSON form; a reader refuses
// lines of another version.
const recordSchema = 1

// Record is one run, one JSON line in runs.jsonl: one server serving one
// workload once, in one round, under pure-load.
type Record struct {
	Schema int `json:"schema"`
	// Server is the program (pure-serve, nethttp, fasthttp, nginx), Mode
	// how it keeps data (durable, ram, memory, fdatasync, crashsafe,
	// static); ID is the harness's name for the pair (nethttp-crashsafe).
	Server string `json:"server"`
	Mode   string `json:"mode"`
	ID     string `json:"id"`
	// Workload is the harness's workload name (get-64c ...), Load the
	// pure-load workload it runs.
	Workload    string  `json:"workload"`
	Load        string  `json:"load"`
	Connections int     `json:"connections"`
	Pipeline    int     `json:"pipeline"`
	KeepAlive   bool    `json:"keepalive"`
	DurationS   float64 `json:"duration_s"`
	// Count, when set, is the fixed number of requests the load sent
	// instead of running for a duration (DurationS is then how long they
	// took).
	Count int `json:"count,omitempty"`
	// Round counts from 1; Order is the server's place in the round's
	// rotated order of servers for this workload, from 1.
	Round int `json:"round"`
	Order int `json:"order"`
	// CPUServer and CPULoad are the taskset CPU lists of the server and of
	// pure-load; empty when not pinned.
	CPUServer string `json:"cpu_server"`
	CPULoad   string `json:"cpu_load"`
	// LoadVia is the command prefix pure-load ran through on another
	// host (pure-http load-via=, like "ssh bench@10.0.0.2"); empty when it
	// ran here. Listen is the address the servers listened on; empty in
	// records from before it was kept, which listened on 127.0.0.1.
	LoadVia string `json:"load_via,omitempty"`
	Listen  string `json:"listen,omitempty"`

	// What pure-load saw.
	Requests  int64   `json:"requests"`
	OK        int64   `json:"ok"`
	Non2xx    int64   `json:"non2xx"`
	Errors    int64   `json:"errors"` // connect, write, read, timeout, parse and closed errors summed
	OKPerS    float64 `json:"ok_per_s"`
	P50us     float64 `json:"p50_us"`
	P99us     float64 `json:"p99_us"`
	ClientCPU float64 `json:"client_cpu_s"`

	// What /proc said of the server (for nginx: master and workers).
	ServerCPU      float64 `json:"server_cpu_s"`
	OKPerServerCPU float64 `json:"ok_per_server_cpu_s"`
	PeakRSSKiB     int64   `json:"peak_rss_kib"`
	// RSSReset says whether the server's peak RSS was reset after its
	// preparation (seeding), so that the peak is this load's alone.
	RSSReset bool `json:"rss_reset"`
	// SettleS is how long the server rested after its preparation before
	// its peak RSS was reset; missing in records from before the rest.
	SettleS float64 `json:"settle_s,omitempty"`
	// RestRSSKiB is the server's resident memory (VmRSS; nginx: its
	// worker) right after that reset, before the load: what its binary,
	// its runtime and the prepared store hold with nothing to do, so that
	// the peak's rise above it is what the load cost. Missing in records
	// from before it was kept.
	RestRSSKiB int64 `json:"rest_rss_kib,omitempty"`

	// The device's fsync latency, probed before this workload in this
	// round (write workloads only): 4 KiB append + fdatasync, 200 times.
	FsyncP50us float64 `json:"fsync_p50_us,omitempty"`
	FsyncP99us float64 `json:"fsync_p99_us,omitempty"`
	FSType     string  `json:"fs_type,omitempty"`

	// LoadAvg1 is the machine's 1-minute load average just before the
	// run (/proc/loadavg): other work competing for the CPUs shows here,
	// and so do threads waiting in fsync (Linux counts them), such as the
	// crash-safe baselines' in the runs before. Missing where unknown.
	LoadAvg1 *float64 `json:"loadavg_1m,omitempty"`
	// OtherCPU is the CPU time the machine spent busy during the load
	// beyond the server's and pure-load's own (httpbench.MachineBusy's
	// change less ServerCPU and ClientCPU, at least 0): other processes,
	// kernel threads, interrupts charged to neither, steal. Missing in
	// records from before it was kept.
	OtherCPU *float64 `json:"other_cpu_s,omitempty"`
	// Host describes the machine: CPU model, CPUs online, kernel.
	Host string `json:"host,omitempty"`

	// Publications is pure-serve's store counter after the run (its last
	// line on stderr): one per synced group of commits, the preparation's
	// included; durable writes answered divided by it is the writes that
	// shared a sync. Zero for the other servers.
	Publications int64 `json:"publications,omitempty"`
	// Profile, with profile=1, is pure-serve's CPU profile of the load
	// (net/http/pprof through --pprof), relative to the experiment
	// directory.
	Profile string `json:"profile,omitempty"`

	// Failure, when not empty, says why the run has no measurement.
	Failure string `json:"failure,omitempty"`
	// Commit is the checkout the servers were built from, Go the toolchain.
	Commit string `json:"commit"`
	Go     string `json:"go"`
	// Build says how the servers were built (static: CGO_ENABLED=0);
	// missing in records from before builds were static, which were cgo
	// builds that load libc.
	Build string `json:"build,omitempty"`
}

// ReadRecords reads JSON lines; a bad line is an error naming its number.
func ReadRecords(r io.Reader) ([]Record, error) {
	var recs []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var rec Record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if rec.Schema != recordSchema {
			return nil, fmt.Errorf("line %d: schema %d, this reader knows %d", n, rec.Schema, recordSchema)
		}
		recs = append(recs, rec)
	}
	return recs, sc.Err()
}
