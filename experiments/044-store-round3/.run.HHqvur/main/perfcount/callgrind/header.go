package callgrind

import (
	"strconv"
	"strings"
)

// header handles a "key: value" line.
func (p *parser) header(key, value string) error {
	switch key {
	case "version":
		v, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || v < 0 {
			return p.errorf(ErrSyntax, "version is not a number: expected version: 1")
		}
		if v > 1 {
			return p.errorf(ErrSyntax, "format version %d is not supported: expected version 0 or 1", v)
		}
		p.prof.Version = v
		return nil
	case "creator":
		p.prof.Creator = value
		return nil
	case "event":
		// Long names and inherited event types are not needed here.
		return nil
	case "summary", "totals":
		if p.part == nil || p.part.Events == nil {
			return p.errorf(ErrNoEvents, "%s: before events: expected events: first", key)
		}
		f := strings.Fields(value)
		if len(f) == 0 {
			return p.errorf(ErrSyntax, "%s: has no costs: expected %s: COST...", key, key)
		}
		costs := make([]uint64, len(p.part.Events))
		if err := p.costs(costs, f); err != nil {
			return err
		}
		if key == "summary" {
			p.part.Summary = costs
		} else {
			p.part.Totals = costs
			p.closed = true
		}
		return nil
	case "pid", "thread", "part", "cmd", "desc", "positions", "events":
	default:
		p.warnf("unknown header key %q skipped", shorten(key))
		return nil
	}

	if p.part == nil || p.inBody || p.closed {
		p.newPart()
	}
	part := p.part
	switch key {
	case "pid", "thread", "part":
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || n < 0 {
			return p.errorf(ErrSyntax, "%s: is not a number: expected %s: N", key, key)
		}
		switch key {
		case "pid":
			part.PID = n
		case "thread":
			part.Thread = n
		default:
			part.Number = n
		}
	case "cmd":
		part.Cmd = value
	case "desc":
		part.Desc = append(part.Desc, value)
	case "positions":
		return p.positions(strings.Fields(value))
	case "events":
		return p.events(strings.Fields(value))
	}
	return nil
}

// newPart starts a part. It keeps the positions and events of the
// previous part, which a well-formed file repeats anyway.
func (p *parser) newPart() {
	part := &Part{Line: p.lineNo, Positions: []string{"line"}}
	if prev := p.part; prev != nil {
		part.Positions = prev.Positions
		if prev.Events != nil {
			part.Events = prev.Events
			part.SelfSum = make([]uint64, len(prev.Events))
		}
	}
	p.prof.Parts = append(p.prof.Parts, part)
	p.part = part
	p.inBody, p.closed = false, false
	p.functions = make(map[fnKey]*Function)
	p.lines = make(map[*Function]map[lineKey]*LineCost)
	p.object, p.srcFile, p.fn, p.cur, p.curLines = "", "", nil, nil, nil
	p.cob, p.cfi, p.hasCob, p.hasCfi, p.callee = "", "", false, false, nil
	p.setIndexes()
}

// setIndexes finds "line" and "instr" in the part's positions and resets
// the previous subpositions.
func (p *parser) setIndexes() {
	p.lineIdx, p.instrIdx = -1, -1
	for i, name := range p.part.Positions {
		switch name {
		case "line":
			p.lineIdx = i
		case "instr", "addr":
			p.instrIdx = i
		}
	}
	p.last = make([]uint64, len(p.part.Positions))
}

// positions handles "positions:".
func (p *parser) positions(names []string) error {
	if len(names) == 0 {
		return p.errorf(ErrSyntax, "empty positions: expected positions: [instr] [line]")
	}
	seen := make(map[string]bool)
	for _, n := range names {
		switch n {
		case "instr", "addr", "bb", "line":
		default:
			return p.errorf(ErrSyntax, "unknown subposition %q: expected instr, bb or line", shorten(n))
		}
		if seen[n] {
			return p.errorf(ErrSyntax, "subposition %q given twice", n)
		}
		seen[n] = true
	}
	p.part.Positions = names
	p.setIndexes()
	return nil
}

// events handles "events:".
func (p *parser) events(names []string) error {
	if len(names) == 0 {
		return p.errorf(ErrNoEvents, "empty events: expected events: NAME...")
	}
	seen := make(map[string]bool)
	for _, n := range names {
		if seen[n] {
			return p.errorf(ErrSyntax, "event %q given twice", shorten(n))
		}
		seen[n] = true
	}
	p.part.Events = names
	p.part.SelfSum = make([]uint64, len(names))
	p.part.Summary, p.part.Totals = nil, nil
	return nil
}
