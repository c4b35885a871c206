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
// updated in place, every second and at each run's start (pair i of n, the
// workload, both sides of the pair in the order they run, elapsed,
// estimated time left), and prints failures and messages on lines of their
// own; elsewhere it prints one plain line per finished run, each starting
// with the time of day.
//
// The time left is estimated from the measured duration of each workload's
// runs in this session: every remaining run is counted at the mean of its
// workload's finished runs (the mean of all finished runs for a workload
// not yet run), so the estimate is steady from the first pair on, however
// different the workloads' lengths.
//
// Its methods are called from one goroutine, but for Message; on a
// terminal, Starting starts a ticker that Done stops.
type Progress struct {
	W io.Writer
	// Terminal selects the updating line.
	Terminal bool
	// Pairs is the number of pairs, Total the number of cells to run in this
	// session, and Recorded the number recorded by earlier sessions; runs are
	// numbered from Recorded+1 to Recorded+Total.
	Pairs, Total, Recorded int
	// Cells are the cells to run in this session, in order, for the
	// estimate of the time left; without them every run counts alike.
	Cells []measure.Cell

	mu      sync.Mutex // guards the fields below against the ticker
	start   time.Time
	done    int
	lastLen int
	cur     []measure.Cell
	took    map[string][]time.Duration // per workload, this session's runs
	stop    chan struct{}
	stopped chan struct{}
	// now is the clock, time.Now unless a test sets it.
	now func() time.Time
}

func (p *Progress) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

func (p *Progress) elapsed() time.Duration { return p.clock().Sub(p.start) }

// left estimates the time the remaining runs take (see Progress).
func (p *Progress) left() string {
	if p.done == 0 {
		return "?"
	}
	var all time.Duration
	n := 0
	for _, ds := range p.took {
		for _, d := range ds {
			all += d
			n++
		}
	}
	if n == 0 || len(p.Cells) < p.Total {
		per := p.elapsed() / time.Duration(p.done)
		return fmtDuration((per * time.Duration(p.Total-p.done)).Round(time.Second))
	}
	overall := all / time.Duration(n)
	var sum time.Duration
	for _, c := range p.Cells[min(p.done, len(p.Cells)):] {
		if ds := p.took[c.Workload.Name]; len(ds) > 0 {
			var t time.Duration
			for _, d := range ds {
				t += d
			}
			sum += t / time.Duration(len(ds))
		} else {
			sum += overall
		}
	}
	return fmtDuration(sum.Round(time.Second))
}

// Starting reports that the one or two cells of a workload's pair start;
// two are its two sides, in the order they run.
func (p *Progress) Starting(cells ...measure.Cell) {
	if p.W == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.start.IsZero() {
		p.start = p.clock()
	}
	if !p.Terminal {
		return
	}
	p.cur = cells
	p.redraw()
	if p.stop == nil {
		p.stop, p.stopped = make(chan struct{}), make(chan struct{})
		go p.tick()
	}
}

// Message prints a line of its own: on a terminal it clears the status
// line first and redraws it after, so the message starts on a new line;
// elsewhere it starts with the time of day, like every line of a log.
func (p *Progress) Message(w io.Writer, msg string) {
	if p == nil || w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.Terminal {
		fmt.Fprintln(w, p.stamp()+msg)
		return
	}
	p.clear()
	fmt.Fprintln(w, msg)
	p.redraw()
}

// stamp is the time of day that starts a line of a log.
func (p *Progress) stamp() string { return p.clock().Format("15:04:05") + " " }

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

// redraw rewrites the status line of the running cells, if any.
func (p *Progress) redraw() {
	if len(p.cur) == 0 {
		return
	}
	c := p.cur[0]
	sides := string(c.Side)
	if len(p.cur) == 2 {
		sides = fmt.Sprintf("%s then %s", c.Side, p.cur[1].Side)
	}
	p.status(fmt.Sprintf("pair %d of %d · %s · %s · runs %d/%d · %s elapsed · ~%s left",
		c.Pair, p.Pairs, c.Workload.Name, sides, p.Recorded+p.done+1, p.Recorded+p.Total, fmtDuration(p.elapsed().Round(time.Second)), p.left()))
}

// Finished reports a finished run.
func (p *Progress) Finished(c measure.Cell, l *expdir.Line) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if p.took == nil {
		p.took = map[string][]time.Duration{}
	}
	p.took[c.Workload.Name] = append(p.took[c.Workload.Name], l.Wall)
	if len(p.cur) > 0 && p.cur[0].Key() == c.Key() {
		p.cur = p.cur[1:] // the other side of the pair is still running
	}
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
		fmt.Fprintln(p.W, p.stamp()+msg)
		return
	}
	if l.Failed() {
		p.clear()
		fmt.Fprintln(p.W, msg)
		p.redraw()
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
