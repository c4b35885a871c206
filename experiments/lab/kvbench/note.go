package kvbench

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/mdtable"
	"workbench/experiments/lab/stats"
)

// findingsFile is the hand-written analysis a note quotes, when present:
// why a missed target was missed, found from profiles and timings that the
// JSON lines do not hold.
const findingsFile = "findings.md"

// WriteNote reads dir/runs.jsonl (and dir/findings.md, if there is one) and
// writes dir/note.md.
func WriteNote(dir string) error {
	f, err := os.Open(expdir.Dir(dir).Path(expdir.RunsFile))
	if err != nil {
		return fmt.Errorf("note: %w (run run.sh first)", err)
	}
	defer f.Close()
	recs, err := ReadRecords(f)
	if err != nil {
		return fmt.Errorf("note: %s: %w", f.Name(), err)
	}
	if len(recs) == 0 {
		return fmt.Errorf("note: %s holds no records", f.Name())
	}
	note := renderNote(recs)
	if findings, err := os.ReadFile(filepath.Join(dir, findingsFile)); err == nil {
		note += "\n## Findings\n\nWritten by hand, from profiles and timings beyond these runs (`" + findingsFile + "`):\n\n" + strings.TrimSpace(string(findings)) + "\n"
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("note: %w", err)
	}
	return expdir.WriteFileAtomic(expdir.Dir(dir).Path(expdir.NoteFile), []byte(note))
}

// target is one of the store issue's goals: pure's rate in workload is at
// least need times the reference contender's, in the same round.
type target struct {
	what     string
	workload string
	ref      string
	need     float64
}

// The pebble ratios are issue 15's: 64 writers at least 1.5x, and 8 and 1
// writers no worse than the ratios the issue recorded (1.65-1.8x and
// 1.4-1.6x), taken at their lower ends.
var targets = []target{
	{"1 writer: at least 90 % of the raw append+fdatasync rate", WorkloadCommit(1), NameRaw, 0.9},
	{"1 writer: at least 1.4 × pebble", WorkloadCommit(1), NamePebble, 1.4},
	{"8 writers: at least 1.65 × pebble", WorkloadCommit(8), NamePebble, 1.65},
	{"64 writers: at least 1.5 × pebble", WorkloadCommit(64), NamePebble, 1.5},
	{"64 writers: at least 10 × bbolt Batch", WorkloadCommit(64), NameBboltBatch, 10},
	{"point reads: at least bbolt", WorkloadPointGet, NameBbolt, 1},
}

// zeroAllocs is the most allocations per point read (of the whole process,
// over a cell) still counted as none: the runtime may allocate on its own
// once in a long while.
const zeroAllocs = 0.001

// runs indexes records by workload, contender and round.
type runs struct {
	recs   []Record
	rounds []int
	cells  map[string]map[string]map[int]Record
}

func index(recs []Record) *runs {
	rs := &runs{recs: recs, cells: map[string]map[string]map[int]Record{}}
	for _, r := range recs {
		if rs.cells[r.Workload] == nil {
			rs.cells[r.Workload] = map[string]map[int]Record{}
		}
		if rs.cells[r.Workload][r.Contender] == nil {
			rs.cells[r.Workload][r.Contender] = map[int]Record{}
		}
		rs.cells[r.Workload][r.Contender][r.Round] = r
		if !slices.Contains(rs.rounds, r.Round) {
			rs.rounds = append(rs.rounds, r.Round)
		}
	}
	slices.Sort(rs.rounds)
	return rs
}

// workloads returns the workloads present: durable commits by writer
// count, then point-get, range-100, then any other by name.
func (rs *runs) workloads() []string {
	var ws []string
	for w := range rs.cells {
		ws = append(ws, w)
	}
	rank := func(w string) (int, int) {
		if n, ok := ParseWorkloadCommit(w); ok {
			return 0, n
		}
		switch w {
		case WorkloadPointGet:
			return 1, 0
		case WorkloadRange100:
			return 2, 0
		}
		return 3, 0
	}
	slices.SortFunc(ws, func(a, b string) int {
		ra, na := rank(a)
		rb, nb := rank(b)
		return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(na, nb), strings.Compare(a, b))
	})
	return ws
}

// contenders returns the contenders of workload in the registry's order,
// unknown names last by name.
func (rs *runs) contenders(workload string) []string {
	order := map[string]int{}
	for i, c := range All() {
		order[c.Name] = i
	}
	var cs []string
	for c := range rs.cells[workload] {
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b string) int {
		oa, ka := order[a]
		ob, kb := order[b]
		if !ka {
			oa = len(order)
		}
		if !kb {
			ob = len(order)
		}
		return cmp.Or(cmp.Compare(oa, ob), strings.Compare(a, b))
	})
	return cs
}

// perRound returns f of the contender's record in each round, NaN where
// it did not run.
func (rs *runs) perRound(workload, contender string, f func(Record) float64) []float64 {
	out := make([]float64, len(rs.rounds))
	for i, round := range rs.rounds {
		r, ok := rs.cells[workload][contender][round]
		if !ok {
			out[i] = math.NaN()
			continue
		}
		out[i] = f(r)
	}
	return out
}

// ratios returns a's ops/s over b's in each round where both ran.
func (rs *runs) ratios(workload, a, b string) []float64 {
	out := make([]float64, len(rs.rounds))
	for i, round := range rs.rounds {
		ra, oka := rs.cells[workload][a][round]
		rb, okb := rs.cells[workload][b][round]
		if !oka || !okb || rb.OpsPerS == 0 {
			out[i] = math.NaN()
			continue
		}
		out[i] = ra.OpsPerS / rb.OpsPerS
	}
	return out
}

func opsPerS(r Record) float64 { return r.OpsPerS }

func renderNote(recs []Record) string {
	slices.SortStableFunc(recs, func(a, b Record) int {
		return cmp.Or(cmp.Compare(a.Round, b.Round), cmp.Compare(a.Cell, b.Cell))
	})
	rs := index(recs)
	var b strings.Builder
	exp := recs[0].Experiment
	num, _, _ := strings.Cut(exp, "-")
	fmt.Fprintf(&b, "# %s: the pure store against bbolt and pebble\n\n", num)
	b.WriteString("Generated by `pure-kvbench note` from `runs.jsonl` (written by `run.sh`); do not edit.\n")
	b.WriteString("Regenerate with `go run ./cmd/pure-kvbench note experiments/" + exp + "`.\n\n")
	b.WriteString("Question: does Pure's store commit durably as fast as the disk lets one writer, and as fast as\n")
	b.WriteString("pebble and far faster than bbolt when many commit together, and does it read as fast as bbolt?\n\n")
	writeSetup(&b, rs)
	writeTargets(&b, rs)
	writeProbe(&b, rs)
	for _, w := range rs.workloads() {
		writeWorkload(&b, rs, w)
	}
	writeMethod(&b, rs)
	writeWarnings(&b, rs)
	return b.String()
}

func writeSetup(b *strings.Builder, rs *runs) {
	var machines, fss, gos []string
	keys := 0
	for _, r := range rs.recs {
		m := r.Machine
		machines = appendNew(machines, fmt.Sprintf("%s, %d CPUs, kernel %s, %s/%s", m.CPUModel, m.NumCPU, m.Kernel, m.GOOS, m.GOARCH))
		fss = appendNew(fss, r.FSType)
		gos = appendNew(gos, r.GoVersion)
		keys = max(keys, r.Keys)
	}
	fmt.Fprintf(b, "Machine: %s. Stores on %s; built with %s.\n", strings.Join(machines, "; "), strings.Join(fss, ", "), strings.Join(gos, ", "))
	fmt.Fprintf(b, "%d round(s). Each round probes the device, then runs every cell once, contenders in an order\n", len(rs.rounds))
	b.WriteString("rotated by one each round, each cell in a fresh store directory.")
	if keys > 0 {
		fmt.Fprintf(b, " Reads ran on %s keys loaded outside\nthe measurement.", FormatInt(float64(keys)))
	}
	b.WriteString("\n\n")
}

func writeTargets(b *strings.Builder, rs *runs) {
	b.WriteString("## Targets\n\n")
	b.WriteString("Each ratio is pure's rate over the reference's rate in the same round (same disk, same process,\n")
	b.WriteString("minutes apart); the verdict uses the median of the rounds' ratios.")
	var bare []string
	for _, c := range []string{NameGroup, NameGroupAll} {
		if slices.ContainsFunc(rs.recs, func(r Record) bool { return r.Contender == c }) {
			bare = append(bare, c)
		}
	}
	if len(bare) > 0 {
		b.WriteString(" The " + strings.Join(bare, " and ") + " column(s) give the same\n")
		b.WriteString("ratio for the bare group commits (no index, one sync in flight; median of the same rounds): a\n")
		b.WriteString("store that syncs back to back commits at most W/2 times per sync with W writers, and one that\n")
		b.WriteString("waits for bigger groups leaves the device idle meanwhile, so a target above both columns is\n")
		b.WriteString("beyond cutting CPU on this machine for a store that syncs one group at a time.")
	}
	b.WriteString("\n\n")
	head := []string{"target", "workload", "per round", ">median", ">needed", "verdict"}
	for _, c := range bare {
		head = append(head, ">"+c)
	}
	t := mdtable.New(head...)
	for _, tg := range targets {
		rat := rs.ratios(tg.workload, NamePure, tg.ref)
		m := stats.Median(rat)
		row := []string{tg.what, tg.workload, fmtList(rat, "%.2f"), fmtF(m, "%.2f"), "≥ " + strconv.FormatFloat(tg.need, 'f', 2, 64), verdict(m, m >= tg.need)}
		for _, c := range bare {
			row = append(row, fmtF(stats.Median(rs.ratios(tg.workload, c, tg.ref)), "%.2f"))
		}
		t.Row(row...)
	}
	allocs := rs.perRound(WorkloadPointGet, NamePure, func(r Record) float64 { return r.AllocsPerOp })
	m := stats.Median(allocs)
	row := []string{"point reads into a borrowed value: zero allocations (allocations per read)",
		WorkloadPointGet, fmtSig3List(allocs), sig3(m), fmt.Sprintf("< %g", zeroAllocs), verdict(m, m < zeroAllocs)}
	for range bare {
		row = append(row, "—")
	}
	t.Row(row...)
	t.Write(b)
	b.WriteString("\n")
}

func verdict(m float64, ok bool) string {
	switch {
	case math.IsNaN(m):
		return "not measured"
	case ok:
		return "**met**"
	}
	return "**missed**"
}

func writeProbe(b *strings.Builder, rs *runs) {
	b.WriteString("## Device probe\n\n")
	b.WriteString("At the start of each round: appends of 4 KiB to a fresh file, each followed by fdatasync.\n\n")
	t := mdtable.New(">round", ">syncs", ">p50", ">p99", "order of the contenders")
	for _, round := range rs.rounds {
		var first Record
		var order []string
		found := false
		for _, r := range rs.recs {
			if r.Round != round {
				continue
			}
			if !found {
				first, found = r, true
			}
			order = appendNew(order, r.Contender)
		}
		t.Row(strconv.Itoa(round), strconv.Itoa(first.FsyncProbeN), fmtMs(first.FsyncP50S), fmtMs(first.FsyncP99S), strings.Join(order, ", "))
	}
	t.Write(b)
	b.WriteString("\n")
}

func writeWorkload(b *strings.Builder, rs *runs, w string) {
	cs := rs.contenders(w)
	if writers, ok := ParseWorkloadCommit(w); ok {
		fmt.Fprintf(b, "## %s\n\n", w)
		fmt.Fprintf(b, "%d concurrent writer(s), each committing its own new keys, one 16-byte value per transaction.\n", writers)
		b.WriteString("Medians over the rounds; CPU is the whole process's user+system time per commit.\n\n")
		t := mdtable.New("contender", ">commits/s", "per round", ">pure ÷ this", ">p50", ">p99", ">CPU/commit", ">syncs/commit")
		for _, c := range cs {
			ops := rs.perRound(w, c, opsPerS)
			p50 := rs.perRound(w, c, func(r Record) float64 { return deref(r.P50S) })
			p99 := rs.perRound(w, c, func(r Record) float64 { return deref(r.P99S) })
			cpu := rs.perRound(w, c, func(r Record) float64 { return r.CPUPerOpS })
			syncs := rs.perRound(w, c, func(r Record) float64 { return deref(r.SyncsPerOp) })
			t.Row(c, FormatInt(stats.Median(ops)), fmtIntList(ops),
				fmtF(stats.Median(rs.ratios(w, NamePure, c)), "%.2f"), fmtMs(stats.Median(p50)), fmtMs(stats.Median(p99)),
				fmtUs(stats.Median(cpu)), naOr(stats.Median(syncs), "%.3f"))
		}
		t.Write(b)
		b.WriteString("\n")
		return
	}
	fmt.Fprintf(b, "## %s\n\n", w)
	switch w {
	case WorkloadPointGet:
		b.WriteString("One reader; each get reads the latest committed version afresh and copies the value out.\n")
	case WorkloadRange100:
		b.WriteString("One reader; each scan visits 100 consecutive keys and values from a random start.\n")
	}
	b.WriteString("Medians over the rounds; CPU and allocations are the whole process's, per operation.\n\n")
	t := mdtable.New("contender", ">ops/s", "per round", ">pure ÷ this", ">CPU/op", ">allocs/op", ">load")
	for _, c := range cs {
		ops := rs.perRound(w, c, opsPerS)
		cpu := rs.perRound(w, c, func(r Record) float64 { return r.CPUPerOpS })
		allocs := rs.perRound(w, c, func(r Record) float64 { return r.AllocsPerOp })
		load := rs.perRound(w, c, func(r Record) float64 { return r.LoadS })
		t.Row(c, FormatInt(stats.Median(ops)), fmtIntList(ops),
			fmtF(stats.Median(rs.ratios(w, NamePure, c)), "%.2f"), fmtUs(stats.Median(cpu)), sig3(stats.Median(allocs)), sig3(stats.Median(load))+" s")
	}
	t.Write(b)
	b.WriteString("\n")
}

func writeMethod(b *strings.Builder, rs *runs) {
	b.WriteString("## Contenders and method\n\n")
	for _, c := range All() {
		if slices.ContainsFunc(rs.recs, func(r Record) bool { return r.Contender == c.Name }) {
			fmt.Fprintf(b, "- `%s`: %s.\n", c.Name, c.About)
		}
	}
	b.WriteString(`- Syncs per commit are counted where the contender can report them: pure's published heads
  (one fdatasync each by the store's design), every Sync/SyncData pebble makes through its file
  system (WAL, flushed tables, manifest, directories), the raw loop's and the bare group commits'
  own calls. bbolt calls fdatasync on its own file, out of reach: n/a. (Its source syncs twice
  per commit, pages then meta page; that is read, not measured.)
- Latency is each commit's, from the call to its durable return; percentiles by nearest rank over
  every commit of the cell. Reads are not timed one by one.
- Allocations are the whole process's heap allocations over a cell divided by its operations;
  pure's point reads count as allocation-free below 0.001 per read, since the runtime (or a
  sync.Pool emptied by a collection) may allocate once in a long while. The package's tests
  check the exact zero with testing.AllocsPerRun.
- Pure's ratio to pebble and to bbolt Batch in one round compares runs minutes apart on one disk;
  the device probe above shows whether the disk changed between rounds.
`)
	b.WriteString("\n")
}

func writeWarnings(b *strings.Builder, rs *runs) {
	var ws []string
	if len(rs.rounds) < 3 {
		ws = append(ws, fmt.Sprintf("only %d round(s): medians of fewer than three rounds do not outvote one disturbed round", len(rs.rounds)))
	}
	for _, r := range rs.recs {
		if r.FSType == "tmpfs" {
			ws = appendNew(ws, "the stores were on tmpfs, where fdatasync does nothing: the commit rates say nothing about a disk")
		}
		if r.P99S != nil && r.Ops < 100 {
			ws = append(ws, fmt.Sprintf("round %d, %s %s: %d commits, too few for a p99", r.Round, r.Contender, r.Workload, r.Ops))
		}
	}
	for _, w := range rs.workloads() {
		for _, c := range rs.contenders(w) {
			for _, round := range rs.rounds {
				if _, ok := rs.cells[w][c][round]; !ok {
					ws = append(ws, fmt.Sprintf("round %d has no %s line for %s: its medians and ratios rest on the other rounds", round, w, c))
				}
			}
		}
	}
	for _, t := range targets {
		if math.IsNaN(stats.Median(rs.ratios(t.workload, NamePure, t.ref))) {
			ws = append(ws, fmt.Sprintf("target %q not measured: no round ran both pure and %s in %s", t.what, t.ref, t.workload))
		}
	}
	if len(ws) == 0 {
		return
	}
	b.WriteString("## Warnings\n\n")
	for _, w := range ws {
		fmt.Fprintf(b, "- %s.\n", w)
	}
}

func appendNew(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

func fmtF(v float64, format string) string {
	if math.IsNaN(v) {
		return "—"
	}
	return fmt.Sprintf(format, v)
}

func naOr(v float64, format string) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf(format, v)
}

func fmtList(xs []float64, format string) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmtF(x, format))
	}
	return strings.Join(s, ", ")
}

func fmtSig3List(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, sig3(x))
	}
	return strings.Join(s, ", ")
}

func fmtIntList(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, FormatInt(x))
	}
	return strings.Join(s, ", ")
}

// FormatInt rounds v to an integer and groups its digits by thousands.
func FormatInt(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	s := strconv.FormatInt(int64(math.Round(v)), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// sig3 prints v with three significant digits, never in exponent form.
func sig3(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v):
		return "—"
	case a == 0:
		return "0"
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 2-int(math.Floor(math.Log10(a))), 64)
}

// fmtMs prints seconds as milliseconds.
func fmtMs(s float64) string {
	if math.IsNaN(s) {
		return "—"
	}
	return sig3(s*1e3) + " ms"
}

// fmtUs prints seconds as microseconds.
func fmtUs(s float64) string {
	if math.IsNaN(s) {
		return "—"
	}
	return sig3(s*1e6) + " µs"
}
