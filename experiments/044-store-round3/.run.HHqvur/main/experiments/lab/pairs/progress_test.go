package pairs

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/suite"
)

// fakeClock is a clock a test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func cell(pair int, side measure.Side, w string) measure.Cell {
	return measure.Cell{Pair: pair, Position: 1, Side: side, Workload: suite.Workload{Name: w}}
}

// In a log, every line starts with the time of day.
func TestProgress_Plain(t *testing.T) {
	var b bytes.Buffer
	clk := &fakeClock{time.Date(2026, 12, 3, 8, 40, 5, 0, time.UTC)}
	p := &Progress{W: &b, Pairs: 2, Total: 2, now: clk.now}
	c := cell(1, measure.Before, "w")
	p.Starting(c)
	p.Finished(c, &expdir.Line{})
	c.Side = measure.After
	p.Starting(c)
	l := &expdir.Line{Measurements: []expdir.Measurement{{Backend: "perf"}, {Backend: "callgrind", ExitCode: 3}}}
	l.ExitCode = 3
	p.Finished(c, l)
	p.Message(&b, "warning: something")
	p.Done()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || strings.Contains(b.String(), "\r") ||
		!strings.HasPrefix(lines[0], "08:40:05 run 1/2: pair 1 of 2 before w: ok in ") ||
		!strings.HasPrefix(lines[1], "08:40:05 run 2/2: pair 1 of 2 after w: FAILED: callgrind measurement: exit status 3 in ") ||
		lines[2] != "08:40:05 warning: something" {
		t.Errorf("output:\n%s", b.String())
	}
}

// On a terminal the status line names both sides of the running pair, and a
// failure or a message starts on a line of its own, the status line
// redrawn after it.
func TestProgress_Terminal(t *testing.T) {
	var b bytes.Buffer
	p := &Progress{W: &b, Terminal: true, Pairs: 1, Total: 2}
	bef, aft := cell(1, measure.Before, "w"), cell(1, measure.After, "w")
	p.Starting(bef, aft)
	if !strings.HasPrefix(b.String(), "\rpair 1 of 1 · w · before then after · runs 1/2 · 0s elapsed · ~? left") {
		t.Errorf("status line %q", b.String())
	}
	p.Message(&b, "warning: hot")
	out := b.String()
	i := strings.Index(out, "warning: hot\n")
	if i < 0 || !strings.HasSuffix(out[:i], "\r") || !strings.HasPrefix(out[i+len("warning: hot\n"):], "\rpair 1 of 1") {
		t.Errorf("the message does not start on a line of its own, with the status redrawn after it: %q", out)
	}
	p.Finished(bef, &expdir.Line{})
	p.Finished(aft, &expdir.Line{Error: "no output"})
	p.Done()
	out = b.String()
	if !strings.Contains(out, "run 2/2") || !strings.Contains(out, "FAILED: no output") || strings.Count(out, "\n") != 2 {
		t.Errorf("output: %q", out)
	}
}

// The time left counts each remaining run at its own workload's measured
// duration: after one pair of a long and a short workload, the estimate is
// the remaining pairs' sum, not the mean of all runs times their number.
func TestProgress_LeftFromEachWorkload(t *testing.T) {
	clk := &fakeClock{time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)}
	var cells []measure.Cell
	for pair := 1; pair <= 3; pair++ {
		for _, w := range []string{"long", "short"} {
			cells = append(cells, cell(pair, measure.Before, w), cell(pair, measure.After, w))
		}
	}
	p := &Progress{Pairs: 3, Total: len(cells), Cells: cells, now: clk.now, W: new(bytes.Buffer)}
	p.Starting(cells[0])
	for _, c := range cells[:4] { // pair 1: 2 long runs of 60 s, 2 short of 1 s
		d := time.Second
		if c.Workload.Name == "long" {
			d = time.Minute
		}
		clk.t = clk.t.Add(d)
		p.Finished(c, &expdir.Line{Run: expdir.Run{Wall: d}})
	}
	// Two pairs left: 4 long runs of 60 s and 4 short of 1 s.
	if got, want := p.left(), fmtDuration(4*time.Minute+4*time.Second); got != want {
		t.Errorf("left after the first pair = %s, want %s", got, want)
	}
}
