package pairs

import (
	"bytes"
	"strings"
	"testing"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/suite"
)

func TestProgress_Plain(t *testing.T) {
	var b bytes.Buffer
	p := &Progress{W: &b, Pairs: 2, Total: 2}
	c := measure.Cell{Pair: 1, Position: 1, Side: measure.Before, Workload: suite.Workload{Name: "w"}}
	p.Starting(c)
	p.Finished(c, &expdir.Line{})
	c.Side = measure.After
	p.Starting(c)
	l := &expdir.Line{Measurements: []expdir.Measurement{{Backend: "perf"}, {Backend: "callgrind", ExitCode: 3}}}
	l.ExitCode = 3
	p.Finished(c, l)
	p.Done()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || strings.Contains(b.String(), "\r") ||
		!strings.HasPrefix(lines[0], "run 1/2: pair 1 of 2 before w: ok in ") ||
		!strings.HasPrefix(lines[1], "run 2/2: pair 1 of 2 after w: FAILED: callgrind measurement: exit status 3 in ") {
		t.Errorf("output:\n%s", b.String())
	}
}

func TestProgress_Terminal(t *testing.T) {
	var b bytes.Buffer
	p := &Progress{W: &b, Terminal: true, Pairs: 1, Total: 2}
	c := measure.Cell{Pair: 1, Position: 1, Side: measure.Before, Workload: suite.Workload{Name: "w"}}
	p.Starting(c)
	p.Finished(c, &expdir.Line{})
	l := &expdir.Line{Error: "no output"}
	p.Starting(c)
	p.Finished(c, l)
	p.Done()
	out := b.String()
	if !strings.HasPrefix(out, "\rpair 1 of 1 · before · w · run 1/2 · 0s elapsed · ~? left") ||
		!strings.Contains(out, "run 2/2") || !strings.Contains(out, "FAILED: no output") ||
		strings.Count(out, "\n") != 1 {
		t.Errorf("output: %q", out)
	}
}
