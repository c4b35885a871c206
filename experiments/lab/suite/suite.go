package suite

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"workbench/experiments/lab/judge"
)

// DefaultTimeout is how long one run may take when the suite does not say.
// A run that takes longer is killed and recorded as failed.
const DefaultTimeout = 10 * time.Minute

// DefaultTool is the subject binary a workload runs when it names none.
const DefaultTool = "pure-count"

// Backends a workload may run under: pure-count's --backend values.
const (
	BackendPerf      = "perf"
	BackendCallgrind = "callgrind"
)

// A Suite is the list of workloads run on each side of each pair, as declared
// in a .suite file.
//
// The file is line based. Blank lines and text from '#' to the end of a line
// are ignored. Each other line is a directive followed by its arguments:
//
//	pairs N                      pairs to run when the command line does not say
//	timeout DURATION             longest one measurement may take (Go duration; default 10m)
//	max-pairs N                  at most N pairs in all for a workload left undecided
//	                             (MaxPairs), when the command line does not say
//	max-time DURATION            time budget for adding pairs to undecided workloads, counted
//	                             from the experiment's start (MaxTime); default none
//	criteria SETTING             a line of the criteria file (judge.ParseCriteria), such as
//	                             "criteria time.metric = cpu_per_op": added to the default
//	                             criteria of an experiment with none committed (Criteria)
//	workload NAME key=value...   one measurement of workload NAME
//
// A workload line's keys:
//
//	backend=perf|callgrind   required: pure-count's --backend
//	ops=N                    operations per measurement (-n); default: the workload's own
//	repeat=N                 fresh processes in the measurement (-r); default 1
//	regions=K                perf only: regions counted one after another in each
//	                         process (--regions); default 1
//	max-repeat=M             perf only: up to M processes per side, past repeat,
//	                         until both sides' fastest regions settle; default repeat
//	prepare=once|each        perf only: once runs every region of a process on one
//	                         preparation (--rerun; workloads that allow it); default each
//	events=E1,E2             events to count (-e); default: pure-count's own
//	tool=NAME                subject binary, built from cmd/NAME; default pure-count.
//	                         It must speak pure-count's `run --json` contract.
//	timeout=DURATION         longest this measurement may take; default: the suite's
//
// A workload line with load= measures a server under load instead (type
// HTTP says how); its keys:
//
//	load=W                   pure-load's workload: get, big, put, score, total, leaders
//	tool=NAME                the server, built from cmd/NAME; default pure-serve
//	conns=N                  connections (pure-load -c); default 64
//	pipeline=D               requests written together (--pipeline); default 1
//	store=ram|disk           the server's store: --ram, or --data in a fresh
//	                         directory per server; default ram
//	windows=N window=D warmup=D
//	                         perf: N load windows of D per side taking turns, after
//	                         a warm-up of each; default 6, 500ms, 500ms
//	requests=N1,N2           callgrind, required: the requests of the two counted
//	                         processes, 0 < N1 < N2
//
// A workload usually has two lines, one per backend: natively for time and
// under callgrind for instructions. The native line's time is that of its
// fastest region, so it is best measured as many short regions (10-20 ms)
// in a few fresh processes; the runner runs one process per side at a time
// and alternates their regions one by one (see measure.RunCells). Its lines are its measurements: in each
// pair and on each side they run one after the other, in file order, and
// together make one run, recorded as one line of runs.jsonl. A workload may
// not have two lines with the same backend.
type Suite struct {
	// Name is the suite's name: its file name without ".suite".
	Name string
	// Path is the file it was read from.
	Path string
	// Text is the file's content, kept so an experiment records exactly
	// what it ran.
	Text string
	// Pairs is the number of pairs the file asks for; 0 when it does not say.
	Pairs int
	// Timeout is the longest one measurement may take.
	Timeout time.Duration
	// MaxPairs is how many pairs in all a workload left undecided may be
	// given (the line `max-pairs 26`), when the command line does not say;
	// 0 when the file does not say (the pairs runner's default).
	MaxPairs int
	// MaxTime is the suite's time budget for adding pairs to undecided
	// workloads (the line `max-time 14m`): no step of two more pairs starts
	// when it would end past MaxTime after the experiment's start. Zero when
	// the file does not say: no budget.
	MaxTime time.Duration
	// Workloads are in the order of their first line.
	Workloads []Workload
	// Criteria are the suite's criteria lines, in the criteria file's
	// format (judge.ParseCriteria), in file order: they follow the default
	// criteria in the criteria file of an experiment that has none
	// committed, so a suite can say, for one, which time metric decides.
	Criteria []string
}

// A Workload is what one run measures: one workload of the subject, by one or
// more measurements.
type Workload struct {
	// Name is the workload as registered in the subject, e.g. "sort-ints-10k".
	Name string
	// Line is the suite line that first named it.
	Line     int
	Measures []Measure
}

// A Measure is one measurement of a workload: one invocation of the subject.
type Measure struct {
	// Backend is BackendPerf or BackendCallgrind.
	Backend string
	// Tool is the subject binary, built from cmd/<Tool> of each revision; it
	// takes pure-count's run arguments and prints its JSON lines.
	Tool string
	// Ops is the number of operations per repeat; 0 leaves it to the
	// subject.
	Ops int
	// Repeat is the number of fresh processes in the measurement.
	Repeat int
	// Regions is the number of regions each process counts (perf only).
	Regions int
	// MaxRepeat, when above Repeat, lets an interleaved perf measurement
	// run up to MaxRepeat processes per side until both sides' floors
	// settle (see settled); 0 means Repeat.
	MaxRepeat int
	// PrepareOnce (suite key prepare=once) runs every region of a process
	// on one preparation of the workload (pure-count run --rerun), for
	// workloads whose preparation costs far more than their region; the
	// default, prepare=each, prepares each region afresh. Perf only.
	PrepareOnce bool
	// Events are the events to count; empty leaves them to the subject.
	Events []string
	// Timeout is the longest the measurement may take; 0 is the suite's.
	Timeout time.Duration
	// HTTP, when not nil, makes this a measurement of a server under load
	// (key load=; see HTTP); the pure-count keys above are then unused.
	HTTP *HTTP
	// GoBench, when not nil, makes this a run of a Go benchmark of another
	// module (see GoBench); Tool is then the side's test binary.
	GoBench *GoBench
	// Line is the suite line that declared it.
	Line int
}

// Args returns the subject's arguments, after the program name, to take this
// measurement of workload:
// run --backend B [-e E] [-n OPS] [--regions K] [--rerun] -r R --json NAME.
func (m Measure) Args(workload string) []string {
	args := []string{"run", "--backend", m.Backend}
	if len(m.Events) > 0 {
		args = append(args, "-e", strings.Join(m.Events, ","))
	}
	if m.Ops > 0 {
		args = append(args, "-n", strconv.Itoa(m.Ops))
	}
	if m.Regions > 1 {
		args = append(args, "--regions", strconv.Itoa(m.Regions))
	}
	if m.PrepareOnce {
		args = append(args, "--rerun")
	}
	return append(args, "-r", strconv.Itoa(m.Repeat), "--json", workload)
}

// PreparesOnce reports whether any measurement has prepare=once.
func (s *Suite) PreparesOnce() bool {
	for _, w := range s.Workloads {
		for _, m := range w.Measures {
			if m.PrepareOnce {
				return true
			}
		}
	}
	return false
}

// Tools returns the subject binaries the suite needs, sorted, each once.
func (s *Suite) Tools() []string {
	var tools []string
	for _, w := range s.Workloads {
		for _, m := range w.Measures {
			if !slices.Contains(tools, m.Tool) {
				tools = append(tools, m.Tool)
			}
		}
	}
	slices.Sort(tools)
	return tools
}

// LoadSuite reads a suite by name or path. A name without a slash and
// without the ".suite" extension is looked up as dir/NAME.suite, where dir is
// normally the checkout's experiments/suites.
func LoadSuite(dir, nameOrPath string) (*Suite, error) {
	path := nameOrPath
	if !strings.ContainsRune(nameOrPath, filepath.Separator) && !strings.HasSuffix(nameOrPath, ".suite") {
		path = filepath.Join(dir, nameOrPath+".suite")
	}
	f, err := os.Open(path)
	if err != nil {
		if nameOrPath == "default" && errors.Is(err, os.ErrNotExist) {
			return nil, errors.New(`suite "default" is now named micro (the sort, itoa and store micro-workloads); the default suite is apps (the bank queries and TPC-C): pass suite=micro, or leave suite= out`)
		}
		return nil, fmt.Errorf("suite %q: %w (suites live in %s as NAME.suite)", nameOrPath, err, dir)
	}
	defer f.Close()
	return ParseSuite(path, f)
}

var (
	nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	// A workload's name as pure-count registers it: the bank's views keep
	// their own names (bank-per_branch-10k).
	workloadRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	// An event as perf spells it, e.g. "task-clock", "instructions:u", "r00c0".
	eventRE = regexp.MustCompile(`^[A-Za-z0-9_./:=-]+$`)
)

// once checks a directive that may appear once, with one argument (f is
// its line's fields, n the line number): at holds the line of its first
// appearance, want names its argument, and set parses and stores it.
func once(f []string, n int, at *int, want string, set func(string) error) error {
	if *at != 0 {
		return fmt.Errorf("%s repeated (first at line %d)", f[0], *at)
	}
	*at = n
	if len(f) != 2 {
		return fmt.Errorf("want: %s %s", f[0], want)
	}
	return set(f[1])
}

// positiveDuration returns a setter for once that stores a positive Go
// duration in d; the error names the directive and gives examples.
func positiveDuration(d *time.Duration, directive, examples string) func(string) error {
	return func(v string) error {
		x, err := time.ParseDuration(v)
		if err != nil || x <= 0 {
			return fmt.Errorf("%s %q: want a positive duration such as %s", directive, v, examples)
		}
		*d = x
		return nil
	}
}

// positiveCount returns a value parser for directive that stores a whole
// number of at least 1 in n.
func positiveCount(n *int, directive string) func(string) error {
	return func(v string) error {
		x, err := strconv.Atoi(v)
		if err != nil || x < 1 {
			return fmt.Errorf("%s %q: want a whole number of at least 1", directive, v)
		}
		*n = x
		return nil
	}
}

// ParseSuite parses a suite file. The returned error joins one *ParseError
// per bad line, so a user sees every problem at once; on error the suite is
// nil.
func ParseSuite(path string, r io.Reader) (*Suite, error) {
	s := &Suite{
		Name:    strings.TrimSuffix(filepath.Base(path), ".suite"),
		Path:    path,
		Timeout: DefaultTimeout,
	}
	var (
		errs       []error
		text       strings.Builder
		seen       = map[string]int{} // workload name/backend -> line
		index      = map[string]int{} // workload name -> position in s.Workloads
		pairsAt    int
		timeoutAt  int
		maxTimeAt  int
		maxPairsAt int
	)
	fail := func(line int, format string, args ...any) {
		errs = append(errs, &ParseError{File: path, Line: line, Err: fmt.Errorf(format, args...)})
	}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		raw := sc.Text()
		text.WriteString(raw)
		text.WriteByte('\n')
		line, _, _ := strings.Cut(raw, "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "pairs":
			if err := once(f, n, &pairsAt, "N", positiveCount(&s.Pairs, "pairs")); err != nil {
				fail(n, "%v", err)
			}
		case "timeout":
			if err := once(f, n, &timeoutAt, "DURATION (e.g. 5m)", positiveDuration(&s.Timeout, "timeout", "90s or 5m")); err != nil {
				fail(n, "%v", err)
			}
		case "max-pairs":
			if err := once(f, n, &maxPairsAt, "N", positiveCount(&s.MaxPairs, "max-pairs")); err != nil {
				fail(n, "%v", err)
			}
		case "max-time":
			if err := once(f, n, &maxTimeAt, "DURATION (e.g. 14m)", positiveDuration(&s.MaxTime, "max-time", "14m or 1h")); err != nil {
				fail(n, "%v", err)
			}
		case "criteria":
			if err := s.addCriteria(line); err != nil {
				fail(n, "%v", err)
			}
		case "workload":
			name, m, err := parseMeasure(f[1:], n)
			if err != nil {
				fail(n, "%v", err)
				continue
			}
			if err := s.addMeasure(name, m, seen, index); err != nil {
				fail(n, "%v", err)
			}
		default:
			fail(n, "unknown directive %q (want pairs, timeout, max-pairs, max-time, criteria or workload)", f[0])
		}
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", path, err))
	}
	if len(errs) == 0 && len(s.Workloads) == 0 {
		errs = append(errs, fmt.Errorf("%s: no workload lines: a suite needs at least one", path))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	s.Text = text.String()
	return s, nil
}

// addMeasure adds measurement m of workload name, declared on line
// m.Line; seen maps workload/backend to its line and index a workload's
// name to its place in s.Workloads.
func (s *Suite) addMeasure(name string, m Measure, seen, index map[string]int) error {
	key := name + "/" + m.Backend
	if at, dup := seen[key]; dup {
		return fmt.Errorf("workload %s with backend=%s repeats line %d", name, m.Backend, at)
	}
	i, ok := index[name]
	if ok && (s.Workloads[i].Measures[0].HTTP == nil) != (m.HTTP == nil) {
		return fmt.Errorf("workload %s: either every line of a workload measures a server under load (load=) or none does (see line %d)", name, s.Workloads[i].Line)
	}
	seen[key] = m.Line
	if !ok {
		i = len(s.Workloads)
		index[name] = i
		s.Workloads = append(s.Workloads, Workload{Name: name, Line: m.Line})
	}
	s.Workloads[i].Measures = append(s.Workloads[i].Measures, m)
	return nil
}

// addCriteria adds the setting of a criteria line (its text without the
// comment) to s.Criteria, checked with the lines before it so that a
// setting given twice is caught where it repeats.
func (s *Suite) addCriteria(line string) error {
	setting := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "criteria"))
	if setting == "" {
		return errors.New("want: criteria SETTING, a line of the criteria file such as time.metric = cpu_per_op")
	}
	all := strings.Join(append(slices.Clone(s.Criteria), setting), "\n")
	if _, err := judge.ParseCriteria(strings.NewReader(all), s.Path); err != nil {
		msg := err.Error()
		if pe, ok := errors.AsType[*judge.ParseError](err); ok {
			msg = pe.Msg
		}
		return fmt.Errorf("criteria %s: %s", setting, msg)
	}
	s.Criteria = append(s.Criteria, setting)
	return nil
}

// parseMeasure parses the arguments of a workload line.
func parseMeasure(args []string, line int) (name string, m Measure, err error) {
	if len(args) == 0 {
		return "", m, errors.New("want: workload NAME backend=perf|callgrind [ops=N] [repeat=N] [max-repeat=M] [regions=K] [prepare=once|each] [events=E,...] [tool=NAME] [timeout=D]")
	}
	name = args[0]
	m = Measure{Tool: DefaultTool, Repeat: 1, Regions: 1, Line: line}
	if !workloadRE.MatchString(name) {
		return name, m, fmt.Errorf("workload name %q: want lower-case letters, digits, dashes and underscores", name)
	}
	keys := map[string]bool{}
	for _, kv := range args[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			return name, m, fmt.Errorf("%q: want key=value", kv)
		}
		if keys[k] {
			return name, m, fmt.Errorf("key %s given twice", k)
		}
		keys[k] = true
		if ok, err := parseHTTPKey(&m, k, v); ok {
			if err != nil {
				return name, m, err
			}
			continue
		}
		switch k {
		case "backend":
			if v != BackendPerf && v != BackendCallgrind {
				return name, m, fmt.Errorf("backend=%s: want perf or callgrind", v)
			}
			m.Backend = v
		case "ops", "repeat", "regions", "max-repeat":
			i, err := strconv.Atoi(v)
			if err != nil || i < 1 {
				return name, m, fmt.Errorf("%s=%s: want a whole number of at least 1", k, v)
			}
			switch k {
			case "ops":
				m.Ops = i
			case "repeat":
				m.Repeat = i
			case "max-repeat":
				m.MaxRepeat = i
			default:
				m.Regions = i
			}
		case "prepare":
			if v != "once" && v != "each" {
				return name, m, fmt.Errorf("prepare=%s: want once (every region of a process on one preparation) or each (each region prepared afresh)", v)
			}
			m.PrepareOnce = v == "once"
		case "events":
			for _, e := range strings.Split(v, ",") {
				if !eventRE.MatchString(e) {
					return name, m, fmt.Errorf("events=%s: bad event %q", v, e)
				}
				m.Events = append(m.Events, e)
			}
		case "tool":
			if !nameRE.MatchString(v) {
				return name, m, fmt.Errorf("tool=%s: want the name of a directory under cmd/", v)
			}
			m.Tool = v
		case "timeout":
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return name, m, fmt.Errorf("timeout=%s: want a positive duration such as 90s or 5m", v)
			}
			m.Timeout = d
		default:
			return name, m, fmt.Errorf("unknown key %q (want backend, ops, repeat, max-repeat, regions, prepare, events, tool or timeout; for a server under load, load, conns, pipeline, store, windows, window, warmup and requests)", k)
		}
	}
	if m.Backend == "" {
		return name, m, fmt.Errorf("workload %s: backend=perf or backend=callgrind is required", name)
	}
	if m.HTTP != nil {
		return name, m, checkHTTP(&m, keys)
	}
	if m.MaxRepeat > 0 && (m.Backend != BackendPerf || m.MaxRepeat < m.Repeat) {
		return name, m, fmt.Errorf("max-repeat=%d: for backend=perf only, and at least repeat (%d)", m.MaxRepeat, m.Repeat)
	}
	if m.PrepareOnce && m.Backend != BackendPerf {
		return name, m, errors.New("prepare=once: for timing (backend=perf); callgrind counts one region exactly")
	}
	if m.Regions > 1 && m.Backend != BackendPerf {
		return name, m, fmt.Errorf("regions=%d: several regions per process are for timing (backend=perf); under callgrind raise ops instead", m.Regions)
	}
	return name, m, nil
}
