package app

// The scan loops of Tab and Index (branch nobudget: the runtime without
// execution budget code, the "before" side of experiment 045's pairs).

// forward visits the entries of s from p on, stopping before the first
// key >= hi (when bounded), after limit entries (-1: no limit), or when fn
// returns false.
func (t *Turn) forward(tb *table, s *seq, p pos, hi string, bounded bool, limit int, fn func(Record) bool) {
	tb.scanning++
	n := 0
	for c := p.c; c < len(s.chunks); c++ {
		ch := s.chunks[c]
		i := 0
		if c == p.c {
			i = p.i
		}
		stop := false
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
		if stop {
			break
		}
	}
	tb.scanning--
}

// backward visits the entries of s before p, last first, stopping at the
// first key < lo or when fn returns false.
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
		stop := false
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

func kindWord(k Kind) string {
	if k == View {
		return "view"
	}
	return "input"
}
