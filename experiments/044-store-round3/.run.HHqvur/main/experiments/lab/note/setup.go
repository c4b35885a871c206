package note

import (
	"fmt"
	"slices"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/judge"
	"workbench/experiments/lab/mdtable"
	"workbench/experiments/lab/stats"
	"workbench/perfcount"
)

// writeMachine writes the machines the runs were taken on, the builds and
// the controls.
func (e *Experiment) writeMachine(b *strings.Builder) {
	b.WriteString("## Machine and controls\n\n")

	// The machines, in the order of their first run.
	var machines []perfcount.Machine
	var counts []int
	for _, r := range e.Runs {
		i := slices.IndexFunc(machines, func(m perfcount.Machine) bool { return sameMachine(m, r.Machine) })
		if i < 0 {
			machines, counts = append(machines, r.Machine), append(counts, 0)
			i = len(machines) - 1
		}
		counts[i]++
	}
	head := []string{"", "machine"}
	if len(machines) > 1 {
		fmt.Fprintf(b, "The runs were taken on %d different machines, whose counts and times are not comparable:\n\n", len(machines))
		head = []string{""}
		for i := range machines {
			head = append(head, fmt.Sprintf("machine %d (%d runs)", i+1, counts[i]))
		}
	}
	t := mdtable.New(head...)
	facts := []struct {
		name string
		get  func(perfcount.Machine) string
	}{
		{"kernel", func(m perfcount.Machine) string { return orUnknown(m.Kernel) }},
		{"CPU", func(m perfcount.Machine) string { return orUnknown(m.CPUModel) }},
		{"cores", func(m perfcount.Machine) string { return fmt.Sprint(m.NumCPU) }},
		{"PMUs", func(m perfcount.Machine) string {
			if len(m.PMUs) == 0 {
				return "none (no hardware counters: counts come from callgrind)"
			}
			return strings.Join(m.PMUs, ", ")
		}},
		{"perf_event_paranoid", func(m perfcount.Machine) string {
			if m.Paranoid == -99 {
				return "unreadable"
			}
			return fmt.Sprint(m.Paranoid)
		}},
		{"GOARCH", func(m perfcount.Machine) string { return orUnknown(m.GOARCH) }},
		{"GOOS", func(m perfcount.Machine) string { return orUnknown(m.GOOS) }},
	}
	for _, f := range facts {
		r := []string{f.name}
		for _, m := range machines {
			r = append(r, f.get(m))
		}
		t.Row(r...)
	}
	t.Write(b)
	b.WriteString("\n")

	m := e.Meta
	t = mdtable.New("side", "revision", "commit", "Go")
	for _, s := range []struct {
		name string
		b    expdir.Build
	}{{judge.SideBefore, m.Before}, {judge.SideAfter, m.After}} {
		t.Row(s.name, codeOr(s.b.Revision), codeOr(s.b.Commit), orUnknown(s.b.GoVersion))
	}
	t.Write(b)
	b.WriteString("\n")

	c := m.Controls
	t = controlsTable(m)
	t.Write(b)
	b.WriteString("\n")
	if len(e.LoadAvgs) > 0 {
		fmt.Fprintf(b, "The machine's load average (1 minute) when the servers' windows ended: median %s, from %s to %s, over %s.\n\n",
			sig(stats.Median(e.LoadAvgs), 3), sig(slices.Min(e.LoadAvgs), 3), sig(slices.Max(e.LoadAvgs), 3), plural(len(e.LoadAvgs), "timed measurement"))
	}
	if len(c.Notes) > 0 {
		for _, n := range c.Notes {
			fmt.Fprintf(b, "- %s\n", n)
		}
		b.WriteString("\n")
	}
}

// sameMachine reports whether two machines are the same.
func sameMachine(a, b perfcount.Machine) bool {
	return a.Kernel == b.Kernel && a.CPUModel == b.CPUModel && a.NumCPU == b.NumCPU &&
		slices.Equal(a.PMUs, b.PMUs) && a.Paranoid == b.Paranoid && a.GOARCH == b.GOARCH && a.GOOS == b.GOOS
}

// codeOr writes s as code, or "?" when it is empty.
func codeOr(s string) string {
	if s == "" {
		return "?"
	}
	return code(s)
}

// controlsTable returns the table of the controls held alike for both
// sides.
func controlsTable(m expdir.Meta) *mdtable.Table {
	c := m.Controls
	t := mdtable.New("control", "setting")
	aslr := "on"
	if c.ASLROff {
		aslr = "off, " + codeOr(strings.Join(c.Setarch, " "))
	}
	if c.RandomizeVASpace != nil {
		aslr += fmt.Sprintf(" (system randomize_va_space %d)", *c.RandomizeVASpace)
	}
	t.Row("address-space randomisation", aslr)
	cpu := "not pinned"
	if c.CPU != "" {
		cpu = "CPU " + c.CPU
		if len(c.Taskset) > 0 {
			cpu += ", " + code(strings.Join(c.Taskset, " "))
		}
	}
	t.Row("CPU pinning", cpu)
	switch c.Alternation {
	case "regions":
		t.Row("native (perf) turns", "region by region: a process per side, their regions taking turns A B B A, one running at a time")
	case "processes":
		t.Row("native (perf) turns", "process by process, A B B A")
	}
	if h := c.HTTP; h != nil {
		t.Row("servers under load", "both sides' servers side by side, pinned as above, loaded in turn one window at a time, A B B A, only one loaded at a time")
		load := "pure-load from the harness's checkout, not pinned"
		if h.LoadCPU != "" {
			load = "pure-load from the harness's checkout, CPU " + h.LoadCPU + ", " + code(strings.Join(h.LoadTaskset, " ")) + ", GOMAXPROCS=1"
		}
		t.Row("load generator", load)
	}
	if c.RunDir != "" {
		t.Row("working directory", code(c.RunDir)+", the same for both sides")
	}
	if len(c.Env) > 0 || c.EnvBytes > 0 {
		t.Row("environment", fmt.Sprintf("%s, %s bytes, the same for both sides", plural(len(c.Env), "variable"), groupInt(int64(c.EnvBytes))))
	}
	if m.Timeout > 0 {
		t.Row("timeout per run", m.Timeout.String())
	}
	if m.Harness.Commit != "" {
		h := "commit " + code(shortHash(m.Harness.Commit))
		if m.Harness.Dirty {
			h += ", with uncommitted changes"
		}
		t.Row("harness", h)
	}
	return t
}
