package main

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"workbench/experiments/lab/stats"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// findingsFile is the hand-written analysis a note quotes when present.
const findingsFile = "findings.md"

// writeNote reads dir/runs.jsonl (and dir/findings.md, if there is one)
// and writes dir/note.md.
func writeNote(dir string) error {
	f, err := os.Open(filepath.Join(dir, "runs.jsonl"))
	if err != nil {
		return fmt.Errorf("note: %w (run pure-http first)", err)
	}
	defer f.Close()
	recs, err := ReadRecords(f)
	if err != nil {
		return fmt.Errorf("note: %s: %w", f.Name(), err)
	}
	if len(recs) == 0 {
		return fmt.Errorf("note: %s holds no runs", f.Name())
	}
	note := renderNote(dir, recs)
	if b, err := os.ReadFile(filepath.Join(dir, findingsFile)); err == nil {
		note += "\n## Findings\n\nWritten by hand (`" + findingsFile + "`), not generated:\n\n" + strings.TrimSpace(string(b)) + "\n"
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("note: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, "note.md"), []byte(note), 0o644)
}

// metric is one number of a run.
type metric func(Record) float64

var (
	okPerS      metric = func(r Record) float64 { return r.OKPerS }
	okPerCPU    metric = func(r Record) float64 { return r.OKPerServerCPU }
	peakRSSKiB  metric = func(r Record) float64 { return float64(r.PeakRSSKiB) }
	metricNames        = map[string]metric{"2xx/s": okPerS, "2xx per server CPU-s": okPerCPU, "peak RSS": peakRSSKiB}
)

// target is one of the performance targets: pure-serve's metric
// on workload divided by ref's, at least need (or, with atMost, at most).
type target struct {
	what     string
	workload string
	ref      string
	metric   string
	need     float64
	atMost   bool
}

var targets = []target{
	{"small GETs: 1.7x net/http per server CPU-s", "get-64c", "nethttp-memory", "2xx per server CPU-s", 1.7, false},
	{"small GETs: at least fasthttp per server CPU-s", "get-64c", "fasthttp-memory", "2xx per server CPU-s", 1, false},
	{"small GETs: at least net/http's 2xx/s", "get-64c", "nethttp-memory", "2xx/s", 1, false},
	{"pipelined GETs: 3x fasthttp per server CPU-s", "get-pipe16", "fasthttp-memory", "2xx per server CPU-s", 3, false},
	{"1 MiB GETs: 1.5x net/http per server CPU-s", "big-8c", "nethttp-memory", "2xx per server CPU-s", 1.5, false},
	{"durable PUTs: 20x crash-safe net/http", "put-64c", "nethttp-crashsafe", "2xx/s", 20, false},
	{"score POSTs: 20x crash-safe net/http", "score-64c", "nethttp-crashsafe", "2xx/s", 20, false},
	// The same target under the same requests (see the RSS target below):
	// in put-64c a faster server's documents grow longer, so each of its
	// PUTs writes more bytes (probe 939); here every server writes the
	// same documents.
	{"durable PUTs: 20x crash-safe net/http (the same 18,000)", "put-64c-same", "nethttp-crashsafe", "2xx/s", 20, false},
	{"peak RSS at most half of net/http's (small GETs)", "get-64c", "nethttp-memory", "peak RSS", 0.5, true},
	{"peak RSS at most half of net/http's (durable PUTs)", "put-64c", "nethttp-crashsafe", "peak RSS", 0.5, true},
	// The same target under the same requests: in put-64c the faster
	// server's documents grow several times larger in the same time.
	{"peak RSS at most half of net/http's (durable PUTs, the same 18,000)", "put-64c-same", "nethttp-crashsafe", "peak RSS", 0.5, true},
}

// subject is the server the targets are about.
const subject = "pure-serve"

// cells indexes successful runs by workload, server ID and round.
type cells map[string]map[string]map[int]Record

func index(recs []Record) cells {
	c := cells{}
	for _, r := range recs {
		if r.Failure != "" {
			continue
		}
		if c[r.Workload] == nil {
			c[r.Workload] = map[string]map[int]Record{}
		}
		if c[r.Workload][r.ID] == nil {
			c[r.Workload][r.ID] = map[int]Record{}
		}
		c[r.Workload][r.ID][r.Round] = r
	}
	return c
}

// median of xs (the mean of the middle two for an even count); NaN if empty.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return stats.Median(xs)
}

// med is the median of m over id's runs of workload.
func (c cells) med(workload, id string, m metric) float64 {
	var xs []float64
	for _, r := range c[workload][id] {
		xs = append(xs, m(r))
	}
	return median(xs)
}

// ratio is the median over rounds of subj's m divided by ref's, in the
// same round; n is the number of rounds with both.
func (c cells) ratio(workload, subj, ref string, m metric) (float64, int) {
	xs := c.roundRatios(workload, subj, ref, m)
	return median(xs), len(xs)
}

// roundRatios are subj's figure over ref's in each round both ran, in the
// rounds' order.
func (c cells) roundRatios(workload, subj, ref string, m metric) []float64 {
	rounds := slices.Sorted(maps.Keys(c[workload][subj]))
	var xs []float64
	for _, round := range rounds {
		a := c[workload][subj][round]
		b, ok := c[workload][ref][round]
		if ok && m(b) > 0 {
			xs = append(xs, m(a)/m(b))
		}
	}
	return xs
}

// mdTable renders a Markdown table. Cells are kept to ASCII: tablewriter
// pads by display width, which differs between terminals for characters
// such as µ or ×, and the note must come out byte for byte the same.
func mdTable(b *strings.Builder, head []string, rows [][]string, right []bool) {
	align := make([]tw.Align, len(head))
	for i := range align {
		align[i] = tw.AlignLeft
		if i < len(right) && right[i] {
			align[i] = tw.AlignRight
		}
	}
	t := tablewriter.NewTable(b,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
	)
	t.Header(head)
	t.Bulk(rows)
	t.Render()
}

func num(v float64, format string) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf(format, v)
}

// serverOrder sorts IDs as the harness lists its servers, unknown last.
func serverOrder(ids []string) {
	pos := func(id string) int {
		if i := slices.IndexFunc(servers, func(s serverSpec) bool { return s.ID == id }); i >= 0 {
			return i
		}
		return len(servers)
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Or(cmp.Compare(pos(a), pos(b)), strings.Compare(a, b)) })
}

// workloadOrder returns the workloads of recs in the harness's order,
// unknown ones last by name.
func workloadOrder(recs []Record) []string {
	var ws []string
	for _, r := range recs {
		if !slices.Contains(ws, r.Workload) {
			ws = append(ws, r.Workload)
		}
	}
	pos := func(w string) int {
		if i := slices.IndexFunc(workloads, func(s workloadSpec) bool { return s.Name == w }); i >= 0 {
			return i
		}
		return len(workloads)
	}
	slices.SortFunc(ws, func(a, b string) int { return cmp.Or(cmp.Compare(pos(a), pos(b)), strings.Compare(a, b)) })
	return ws
}
