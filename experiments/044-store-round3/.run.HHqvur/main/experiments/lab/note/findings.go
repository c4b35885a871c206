package note

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/mdtable"
)

// writeFailures writes every failed run with its exit status and the end
// of its stderr.
func (e *Experiment) writeFailures(b *strings.Builder) {
	b.WriteString("## Failed runs\n\n")
	if len(e.Failures) == 0 {
		b.WriteString("None: every run exited with status 0.\n\n")
		return
	}
	fmt.Fprintf(b, "%d of %s failed; their pairs are listed as failed and used for nothing, and the other pairs went on.\n\n", len(e.Failures), plural(len(e.Runs), "run"))
	for _, f := range e.Failures {
		r := f.Run
		fmt.Fprintf(b, "### %s, pair %d, %s\n\n", r.Workload, r.Pair, r.Side)
		status := fmt.Sprintf("Exit status %d", r.ExitCode)
		if r.ExitCode == -1 {
			status += " (killed by a signal, or no usable result)"
		}
		if r.Revision != "" {
			status += ", revision " + code(r.Revision)
		}
		if r.Commit != "" {
			status += " (commit " + code(shortHash(r.Commit)) + ")"
		}
		b.WriteString(status + ".")
		if f.Error != "" {
			b.WriteString(" The harness says: " + sentence(f.Error))
		}
		b.WriteString("\n\n")
		if strings.TrimSpace(r.StderrTail) == "" {
			b.WriteString("No stderr was recorded.\n\n")
			continue
		}
		b.WriteString("The end of its stderr:\n\n")
		codeBlock(b, "text", r.StderrTail)
		b.WriteString("\n")
	}
}

// writePlot writes the link to the plot and how to read it.
func (e *Experiment) writePlot(b *strings.Builder) {
	b.WriteString("## Plot\n\n")
	fmt.Fprintf(b, "![Per-pair ratios after/before of each workload's deciding metrics](%s)\n\n", expdir.PlotFile)
	b.WriteString("Each point is one pair's ratio after/before; hollow points are pairs the metric did not use. The solid line is no change, the dashed lines each metric's threshold on either side; the bar across each column is its median change and the vertical line right of it its interval, coloured by the verdict (red worse, green better, orange unknown, black the same).\n\n")
}

// writeMoves writes, for each workload whose instruction count moved, the
// functions that moved it, from the profiles kept beside the note.
func (e *Experiment) writeMoves(b *strings.Builder) {
	b.WriteString("## Where the instructions moved\n\n")
	if len(e.Moves) == 0 {
		b.WriteString("No workload's instruction count moved beyond its noise: none was judged worse or better, and no interval lies beyond the noise.\n")
		return
	}
	for i, mv := range e.Moves {
		m := mv.Metric
		fmt.Fprintf(b, "### %s\n\n", mv.Workload)
		fmt.Fprintf(b, "%s per operation: %s; verdict %s.\n\n", m.Metric.Name, changeCI(m.Ratio, e.Report.Options.Confidence), m.Verdict)
		switch {
		case len(mv.Missing) > 0:
			fmt.Fprintf(b, "No profiles to say which functions moved it: %s not found.\n", joinAnd(codes(mv.Missing)))
		case mv.Err != nil:
			fmt.Fprintf(b, "The profiles could not be compared: %s.\n", mv.Err)
		default:
			d := mv.Diff
			fmt.Fprintf(b, "Flat %s of whole runs by function, from the callgrind-derived profiles %s and %s: the %d functions with the largest change, of %d that changed. Delta %% is of the before total.\n\n",
				code(d.SampleType), code(mv.Before), code(mv.After), len(d.Top), d.Changed)
			t := mdtable.New("function", ">before", ">after", ">delta", ">delta %")
			for _, f := range d.Top {
				t.Row(code(shortName(f.Function)), groupInt(f.Before), groupInt(f.After), formatDelta(f.Delta), deltaPct(f.Delta, d.BeforeTotal))
			}
			t.Row("all functions", groupInt(d.BeforeTotal), groupInt(d.AfterTotal), formatDelta(d.AfterTotal-d.BeforeTotal), deltaPct(d.AfterTotal-d.BeforeTotal, d.BeforeTotal))
			t.Write(b)
			b.WriteString("\nTo look further:\n\n")
			codeBlock(b, "sh", fmt.Sprintf("go tool pprof -diff_base %s -top %s", mv.Before, mv.After))
		}
		if i < len(e.Moves)-1 {
			b.WriteString("\n")
		}
	}
}

// codes writes each of ss as code.
func codes(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = code(s)
	}
	return out
}

// deltaPct writes delta as a signed percentage of total with two decimals.
func deltaPct(delta, total int64) string {
	if total == 0 {
		return "—"
	}
	return formatChange(1 + float64(delta)/float64(total))
}

// maxNameRunes is the longest function name shown whole; longer ones have
// their type-parameter lists shortened.
const maxNameRunes = 60

// shortName shortens a long generic function name readably: each
// bracketed type-parameter list becomes "[…]", so
// "pkg.(*Tree[go.shape.string,go.shape.[]uint8]).Get" reads
// "pkg.(*Tree[…]).Get". Shorter names are kept whole.
func shortName(name string) string {
	if utf8.RuneCountInString(name) <= maxNameRunes {
		return name
	}
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '[':
			if depth == 0 {
				b.WriteString("[…]")
			}
			depth++
		case r == ']' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
