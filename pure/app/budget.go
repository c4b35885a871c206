package app

// The execution budget (Options.Budget): every row a turn reads or writes
// is charged, and a turn that goes over is stopped and refused, its
// changes undone. The design keeps a runtime without a budget free of it:
// the turn's meter flag is false, so Get, Put and Delete skip the charge
// on one predictable branch, and scans charge once per chunk of up to
// chunkMax rows (the rows visited, known from positions), never per row
// or per cell. The reason for a refusal is written only when a turn is
// refused (overBudget travels as a panic to Runtime.call, which writes the
// answer), so turns within their budget do no work for it.

// overBudget is the panic value that stops a turn over its budget.
type overBudget struct{}

// charge takes n rows from the turn's budget; over it, the turn stops.
func (t *Turn) charge(n int) {
	t.left -= int64(n)
	if t.left < 0 {
		panic(overBudget{})
	}
}

// overBudgetError is the refusal of a turn that went over its budget.
func (t *Turn) overBudgetError() error {
	return Errorf(422, "over budget: %s %q read and wrote more than its budget of %d rows, so it was stopped and nothing was changed; ask for less (a smaller page or range), or run the server with a larger budget",
		kindWord(t.ep.kind), t.ep.name, t.budget)
}

func kindWord(k Kind) string {
	if k == View {
		return "view"
	}
	return "input"
}

// forward visits the entries of s from p on, stopping before the first
// key >= hi (when bounded), after limit entries (-1: no limit), or when fn
// returns false. Rows are charged per chunk.
func (t *Turn) forward(tb *table, s *seq, p pos, hi string, bounded bool, limit int, fn func(Record) bool) {
	tb.scanning++
	n := 0
	for c := p.c; c < len(s.chunks); c++ {
		ch := s.chunks[c]
		i := 0
		if c == p.c {
			i = p.i
		}
		start, stop := i, false
		for ; i < len(ch); i++ {
			e := &ch[i]
			if bounded && e.k >= hi || n == limit {
				stop = true
				break
			}
			n++
			if !fn(tb.record(e.r)) {
				i++
				stop = true
				break
			}
		}
		if t.metered() {
			t.charge(i - start)
		}
		if stop {
			break
		}
	}
	tb.scanning--
}

// backward visits the entries of s before p, last first, stopping at the
// first key < lo or when fn returns false. Rows are charged per chunk.
func (t *Turn) backward(tb *table, s *seq, p pos, lo string, fn func(Record) bool) {
	c, i := p.c, p.i
	if c >= len(s.chunks) {
		if c = len(s.chunks) - 1; c < 0 {
			return
		}
		i = len(s.chunks[c])
	}
	tb.scanning++
	for ; c >= 0; c-- {
		ch := s.chunks[c]
		start, stop := i, false
		for i > 0 {
			i--
			e := &ch[i]
			if e.k < lo {
				i++
				stop = true
				break
			}
			if !fn(tb.record(e.r)) {
				stop = true
				break
			}
		}
		if t.metered() {
			t.charge(start - i)
		}
		if stop {
			break
		}
		if c > 0 {
			i = len(s.chunks[c-1])
		}
	}
	tb.scanning--
}

// unwind resets what a turn stopped by a panic left: scan counters.
func (r *Runtime) unwind() {
	for _, tb := range r.tables {
		tb.scanning = 0
	}
}
