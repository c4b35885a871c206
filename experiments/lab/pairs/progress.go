package pairs

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/measure"
)

// Progress reports the runs as they go. On a terminal it keeps one line
// updated in place, every second and at each run's start (pair i of n,
// workload, elapsed, estimated time left), and prints failures on lines of
// their own; elsewhere it prints one plain line per finished run.
//
// Its methods are called from one goroutine; on a terminal, Starting starts
// a ticker that Done stops.
type Progress struct {
	W io.Writer
	// Terminal selects the updating line.
	Terminal bool
	// Pairs is the number of pairs, Total the number of cells to run in this
	// session, and Recorded the number recorded by earlier sessions; runs are
	// numbered from Recorded+1 to Recorded+Total.
	Pairs, Total, Recorded int

	mu      sync.Mutex // guards the fields below against the ticker
	start   time.Time
	done    int
	lastLen int
	cur     *measure.Cell
	stop    chan struct{}
	stopped chan struct{}
}

func (p *Progress) elapsed() time.Duration { return time.Since(p.start) }

// left estimates the time the remaining runs take from the mean of those
// done in this session.
func (p *Progress) left() string {
	if p.done == 0 {
		return "?"
	}
	per := p.elapsed() / time.Duration(p.done)
	return fmtDuration((per * time.Duration(p.Total-p.done)).Round(time.Second))
}

// Starting reports that a cell starts.
func (p *Progress) Starting(c measure.Cell) {
	if p.W == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.start.IsZero() {
		p.start = time.Now()
	}
	if !p.Terminal {
		return
	}
	p.cur = &c
	p.redraw()
	if p.stop == nil {
		p.stop, p.stopped = make(chan struct{}), make(chan struct{})
		go p.tick()
	}
}

func (p *Progress) tick() {
	defer close(p.stopped)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.redraw()
			p.mu.Unlock()
		}
	}
}

// redraw rewrites the status line of the running cell, if any.
func (p *Progress) redraw() {
	if c := p.cur; c != nil {
		p.status(fmt.Sprintf("pair %d of %d · %s · %s · run %d/%d · %s elapsed · ~%s left",
			c.Pair, p.Pairs, c.Side, c.Workload.Name, p.Recorded+p.done+1, p.Recorded+p.Total, fmtDuration(p.elapsed().Round(time.Second)), p.left()))
	}
}

// Finished reports a finished run.
func (p *Progress) Finished(c measure.Cell, l *expdir.Line) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.cur = nil
	if p.W == nil {
		return
	}
	outcome := "ok"
	switch {
	case l.Error != "":
		outcome = "FAILED: " + l.Error
	case l.ExitCode != 0:
		outcome = fmt.Sprintf("FAILED: exit status %d", l.ExitCode)
		for _, m := range l.Measurements {
			if m.ExitCode != 0 {
				outcome = fmt.Sprintf("FAILED: %s measurement: exit status %d", m.Backend, m.ExitCode)
				break
			}
		}
	}
	msg := fmt.Sprintf("run %d/%d: pair %d of %d %s %s: %s in %s (%s elapsed, ~%s left)",
		p.Recorded+p.done, p.Recorded+p.Total, c.Pair, p.Pairs, c.Side, c.Workload.Name, outcome,
		fmtDuration(l.Wall), fmtDuration(p.elapsed().Round(time.Second)), p.left())
	if !p.Terminal {
		fmt.Fprintln(p.W, msg)
		return
	}
	if l.Failed() {
		p.clear()
		fmt.Fprintln(p.W, msg)
	}
}

// Done ends the updating line.
func (p *Progress) Done() {
	if p.stop != nil {
		close(p.stop)
		<-p.stopped
		p.stop = nil
	}
	if p.W != nil && p.Terminal {
		p.clear()
	}
}

func (p *Progress) status(s string) {
	pad := ""
	n := utf8.RuneCountInString(s)
	if p.lastLen > n {
		pad = strings.Repeat(" ", p.lastLen-n)
	}
	fmt.Fprintf(p.W, "\r%s%s", s, pad)
	p.lastLen = n
}

func (p *Progress) clear() {
	if p.lastLen > 0 {
		fmt.Fprintf(p.W, "\r%s\r", strings.Repeat(" ", p.lastLen))
		p.lastLen = 0
	}
}

// fmtDuration prints d rounded to the millisecond below a second, to a
// tenth of a second below a minute, and to the second above: 3ms, 1.2s,
// 4m05s, 1h02m03s.
func fmtDuration(d time.Duration) string {
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	if r := d.Round(100 * time.Millisecond); r < time.Minute {
		return r.String()
	}
	d = d.Round(time.Second)
	h, m, s := int(d/time.Hour), int(d/time.Minute)%60, int(d/time.Second)%60
	if h > 0 {
		return fmt.Sprintf("%dh%02dm%02ds", h, m, s)
	}
	return fmt.Sprintf("%dm%02ds", m, s)
}
