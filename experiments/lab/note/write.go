package note

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/mdtable"
)

// Write writes the note of e to w, in Markdown. It does no other I/O, and
// the same Experiment always gives the same bytes: every list is in a
// fixed order and every number in a fixed format (see format.go).
//
// The sections, in order: the title (marked A/A for an A/A run); the
// summary (the verdict, what changed, one row per deciding metric with
// units, change, interval and threshold), so that the verdict is the third
// line; what was compared and from which files; Verdict (the
// experiment's and one sentence per workload, the A/A noise floor when
// there are calibration runs, and warnings); Criteria; Machine and
// controls; Pairs; Medians and 95 % intervals; Instruction counts; Failed
// runs; Plot; Where the instructions moved.
func (e *Experiment) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Experiment %s%s\n\n", e.Name, aaTitle(e.Meta))
	e.writeSummary(&b)
	e.writeCompared(&b)
	e.writeGoBench(&b)
	e.writeVerdict(&b)
	e.writeCriteria(&b)
	e.writeMachine(&b)
	e.writePairs(&b)
	e.writeMedians(&b)
	e.writeInstructions(&b)
	e.writeFailures(&b)
	e.writePlot(&b)
	e.writeMoves(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCompared writes one paragraph on what was compared, how and from
// which files; it follows the summary, which the title heads.
func (e *Experiment) writeCompared(b *strings.Builder) {
	m := e.Meta
	fmt.Fprintf(b, "Before %s against after %s", side(m.Before), side(m.After))
	if m.Suite != "" {
		fmt.Fprintf(b, ", suite %s", code(m.Suite))
	}
	if m.Pairs > 0 {
		fmt.Fprintf(b, ", %d pairs", m.Pairs)
	}
	if !m.Start.IsZero() {
		fmt.Fprintf(b, ", started %s", m.Start.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	fmt.Fprintf(b, ". Generated from %s, %s and %s", expdir.RunsFile, expdir.MetaFile, expdir.CriteriaFile)
	if e.Calibrated {
		fmt.Fprintf(b, " with %s", expdir.CalibrationFile)
	}
	fmt.Fprintf(b, " by %s; edits are lost when it runs again.\n\n", code("just note exp="+e.Name))
}

// side words one side of the comparison: "`HEAD~1` (commit 0123456789ab)".
func side(s expdir.Build) string {
	switch {
	case s.Revision == "" && s.Commit == "":
		return "(not recorded)"
	case s.Commit == "" || s.Commit == s.Revision:
		return code(s.Revision)
	case s.Revision == "":
		return "commit " + code(shortHash(s.Commit))
	case strings.Contains(s.Commit, "@"):
		return code(s.Revision) + " (" + code(s.Commit) + ")" // a module's version
	}
	return code(s.Revision) + " (commit " + code(shortHash(s.Commit)) + ")"
}

// writeVerdict writes the verdicts in plain words, the A/A noise floor and
// every warning.
func (e *Experiment) writeVerdict(b *strings.Builder) {
	rep := &e.Report
	b.WriteString("## Verdict\n\n")
	fmt.Fprintf(b, "**%s.** %s\n\n", capitalize(string(rep.Verdict)), sentence(capitalize(rep.Reason)))
	for _, w := range rep.Workloads {
		fmt.Fprintf(b, "- **%s: %s.** %s\n", w.Workload, w.Verdict, sentence(w.Reason))
	}
	if len(rep.Workloads) > 0 {
		b.WriteString("\n")
	}
	e.writeExtensions(b)
	e.writeBudgetStop(b)
	if e.Calibrated {
		e.writeNoiseFloor(b)
	}
	var warns []string
	add := func(prefix string, errs []error) {
		for _, err := range errs {
			if s := prefix + err.Error(); !slices.Contains(warns, s) {
				warns = append(warns, s)
			}
		}
	}
	add("", e.Warnings)
	add("", rep.Warnings)
	for _, w := range rep.Workloads {
		add(w.Workload+": ", w.Warnings)
		// The same warning about several metrics is written once, naming
		// them all, in the order of the metrics.
		type grouped struct {
			msg     string
			metrics []string
		}
		var gs []grouped
		for _, m := range w.Metrics {
			if !m.Decides {
				continue // a metric that decides nothing bears on no verdict
			}
			for _, err := range m.Warnings {
				i := slices.IndexFunc(gs, func(g grouped) bool { return g.msg == err.Error() })
				if i < 0 {
					gs = append(gs, grouped{msg: err.Error()})
					i = len(gs) - 1
				}
				if !slices.Contains(gs[i].metrics, m.Metric.Name) {
					gs[i].metrics = append(gs[i].metrics, m.Metric.Name)
				}
			}
		}
		for _, g := range gs {
			add(w.Workload+" ("+joinAnd(g.metrics)+"): ", []error{errors.New(g.msg)})
		}
	}
	if len(warns) > 0 {
		b.WriteString("Warnings:\n\n")
		for _, s := range warns {
			fmt.Fprintf(b, "- %s\n", s)
		}
		b.WriteString("\n")
	}
}

// writeNoiseFloor writes the A/A noise of each deciding metric.
func (e *Experiment) writeNoiseFloor(b *strings.Builder) {
	fmt.Fprintf(b, "A/A noise floor, from %s (the same build on both sides). A count's threshold is the larger of its criterion and its noise, the larger of the A/A spread and this experiment's within-side spread:\n\n", expdir.CalibrationFile)
	t := mdtable.New("workload", "metric", ">A/A pairs", ">A/A spread", ">within-side spread", ">criterion", ">threshold")
	for _, w := range e.Report.Workloads {
		for _, m := range w.Metrics {
			if !m.Decides {
				continue
			}
			aa := "—"
			if m.Noise.CalibrationPairs > 0 {
				aa = formatSpread(m.Noise.Calibration)
			}
			t.Row(w.Workload, m.Metric.Name, fmt.Sprint(m.Noise.CalibrationPairs), aa,
				formatSpread(m.Noise.WithinSide), formatLimit(m.Criterion), formatLimit(m.Threshold))
		}
	}
	t.Write(b)
	b.WriteString("\n")
}

// writeCriteria writes the criteria as read, where they came from, and as
// they were applied.
func (e *Experiment) writeCriteria(b *strings.Builder) {
	b.WriteString("## Criteria\n\n")
	o := e.Meta.Criteria
	switch o.Source {
	case "committed":
		fmt.Fprintf(b, "Committed at the before revision, %s, before the change was measured", side(expdir.Build{Revision: e.Meta.Before.Revision, Commit: o.Commit}))
		if o.Path != "" {
			fmt.Fprintf(b, ", as %s", code(o.Path))
		}
		b.WriteString(".\n\n")
	case "file":
		if g := e.Meta.GoBench; g != nil && g.CriteriaNote != "" {
			fmt.Fprintf(b, "%s.\n\n", capitalize(g.CriteriaNote))
			break
		}
		b.WriteString("Written in the experiment directory; not committed at the before revision, so they may have been written after the change was measured.\n\n")
	case "default":
		if g := e.Meta.GoBench; g != nil && g.CriteriaNote != "" {
			fmt.Fprintf(b, "%s; the runner wrote them into the experiment directory before the first run.\n\n", capitalize(g.CriteriaNote))
			break
		}
		b.WriteString("The defaults: no criteria file was committed at the before revision, so the runner wrote the defaults into the experiment directory before the first run.\n\n")
	default:
		fmt.Fprintf(b, "Origin not recorded in %s.\n\n", expdir.MetaFile)
	}
	if e.CriteriaText != "" {
		if o.Source == "default" {
			fmt.Fprintf(b, "The experiment's %s file:\n\n", code(expdir.CriteriaFile))
		} else {
			fmt.Fprintf(b, "As read from %s:\n\n", code(expdir.CriteriaFile))
		}
		codeBlock(b, "text", e.CriteriaText)
		b.WriteString("\n")
	} else {
		fmt.Fprintf(b, "There is no %s file.\n\n", code(expdir.CriteriaFile))
	}
	b.WriteString("In effect, defaults filled in:\n\n")
	codeBlock(b, "text", e.Report.Criteria.String())
	b.WriteString("\n")
}
