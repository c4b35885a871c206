package callgrind

import (
	"errors"
	"strconv"
	"strings"
)

// spec handles a "key=value" body line.
func (p *parser) spec(key, value string) error {
	if p.part == nil {
		return p.errorf(ErrNoEvents, "%s= before any header: expected a header with events: first", shorten(key))
	}
	p.inBody = true
	var ns namespace
	switch key {
	case "fl", "fi", "fe", "cfi", "cfl", "jfi":
		ns = nsFile
	case "ob", "cob":
		ns = nsObject
	case "fn", "cfn", "jfn":
		ns = nsFunc
	case "calls":
		return p.calls(value)
	case "jump", "jcnd":
		// Jumps are not converted; the position line that follows only
		// moves the subpositions.
		p.pendingJump, p.pendingLine = true, p.lineNo
		return nil
	default:
		p.warnf("unknown position key %q skipped", shorten(key))
		return nil
	}
	name, err := p.names.resolve(ns, value)
	if err != nil {
		return p.errorf(ErrSyntax, "%s", err)
	}
	switch key {
	case "ob":
		p.object = name
	case "fl", "fi", "fe":
		p.srcFile = name
	case "fn":
		// The function is created by its first cost or call line, so
		// that fn= lines that only define compressed names add nothing.
		p.fn = &fnKey{p.object, p.srcFile, name}
		p.cur, p.curLines = nil, nil
		p.callee, p.hasCob, p.hasCfi = nil, false, false
	case "cob":
		p.cob, p.hasCob = name, true
	case "cfi", "cfl":
		p.cfi, p.hasCfi = name, true
	case "cfn":
		k := fnKey{p.object, p.srcFile, name}
		if p.hasCob {
			k.object = p.cob
		}
		if p.hasCfi {
			k.file = p.cfi
		}
		p.callee = &k
		p.hasCob, p.hasCfi = false, false
	}
	return nil
}

// function returns the part's function for k, creating it on first use.
func (p *parser) function(k fnKey) *Function {
	if f, ok := p.functions[k]; ok {
		return f
	}
	f := &Function{Name: k.name, File: k.file, Object: k.object, Self: make([]uint64, len(p.part.Events))}
	p.functions[k] = f
	p.lines[f] = make(map[lineKey]*LineCost)
	p.part.Functions = append(p.part.Functions, f)
	return f
}

// current returns the function of the current "fn=" line; p.fn != nil.
func (p *parser) current() *Function {
	if p.cur == nil {
		p.cur = p.function(*p.fn)
		p.curLines = p.lines[p.cur]
	}
	return p.cur
}

// splitFields splits s at spaces and tabs into p.fields.
func (p *parser) splitFields(s string) []string {
	f := p.fields[:0]
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			break
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		f = append(f, s[:end])
		s = s[end:]
	}
	p.fields = f
	return f
}

// calls handles "calls=COUNT TARGET-POSITION". The target position is
// relative to the previous cost line but does not replace it; it is read
// for validity and otherwise not needed.
func (p *parser) calls(value string) error {
	if p.fn == nil {
		return p.errorf(ErrSyntax, "calls= outside a function: expected fn= first")
	}
	if p.callee == nil {
		return p.errorf(ErrSyntax, "calls= without a callee: expected cfn= first")
	}
	if p.part.Events == nil {
		return p.errorf(ErrNoEvents, "calls= before events: expected events: in the header")
	}
	f := p.splitFields(value)
	if len(f) == 0 {
		return p.errorf(ErrSyntax, "calls= without a count: expected calls=COUNT TARGET")
	}
	count, err := parseNumber(f[0])
	if err != nil {
		return p.errorf(ErrSyntax, "call count: %s: expected calls=COUNT TARGET", err)
	}
	if len(f)-1 > len(p.last) {
		return p.errorf(ErrSyntax, "calls= target has %d subpositions: expected at most %d", len(f)-1, len(p.last))
	}
	for i, s := range f[1:] {
		if _, err := parseSubposition(s, p.last[i]); err != nil {
			return p.errorf(ErrSyntax, "calls= target: %s", err)
		}
	}
	p.pending = &Call{Caller: p.current(), Count: count}
	p.pendingLine = p.lineNo
	return nil
}

// costLine handles a line of subpositions and costs: a self cost, the
// inclusive cost of a pending call, or the position line of a jump.
func (p *parser) costLine() error {
	part := p.part
	if part == nil || part.Events == nil {
		return p.errorf(ErrNoEvents, "cost line before events: expected a header with events: first")
	}
	p.inBody = true
	f := p.splitFields(p.text)
	if len(f) < len(p.last) {
		return p.errorf(ErrSyntax, "cost line has %d subpositions: expected %d (%s)", len(f), len(p.last), strings.Join(part.Positions, " "))
	}
	// The position line of a call (after calls=) or of a jump is written
	// relative to the last cost line but, as callgrind writes it (dump.c,
	// fprint_jcc), does not become the base of the next relative position:
	// only self-cost lines move it.
	pos := p.last
	if p.pending != nil || p.pendingJump {
		if cap(p.scratchPos) < len(p.last) {
			p.scratchPos = make([]uint64, len(p.last))
		}
		pos = p.scratchPos[:len(p.last)]
	}
	for i := range p.last {
		v, err := parseSubposition(f[i], p.last[i])
		if err != nil {
			return p.errorf(ErrSyntax, "subposition %s: %s", part.Positions[i], err)
		}
		pos[i] = v
	}
	if cap(p.cost) < len(part.Events) {
		p.cost = make([]uint64, len(part.Events))
	}
	costs := p.cost[:len(part.Events)]
	if err := p.costs(costs, f[len(p.last):]); err != nil {
		return err
	}
	var line, addr uint64
	if p.lineIdx >= 0 {
		line = pos[p.lineIdx]
	}
	if p.instrIdx >= 0 {
		addr = pos[p.instrIdx]
	}

	switch {
	case p.pendingJump:
		p.pendingJump = false
		return nil
	case p.pending != nil:
		c := p.pending
		p.pending = nil
		c.Callee = p.function(*p.callee)
		c.Inclusive = append([]uint64(nil), costs...)
		c.File, c.Line, c.Addr = p.srcFile, line, addr
		part.Calls = append(part.Calls, c)
		return nil
	case p.fn == nil:
		return p.errorf(ErrSyntax, "cost line outside a function: expected fn= first")
	}

	fn := p.current()
	k := lineKey{p.srcFile, line, addr}
	lc, ok := p.curLines[k]
	if !ok {
		lc = &LineCost{File: p.srcFile, Line: line, Addr: addr, Cost: make([]uint64, len(part.Events))}
		p.curLines[k] = lc
		fn.Lines = append(fn.Lines, lc)
	}
	for _, dst := range [][]uint64{lc.Cost, fn.Self, part.SelfSum} {
		if err := addCosts(dst, costs); err != nil {
			return p.errorf(ErrOverflow, "%s", err)
		}
	}
	return nil
}

// costs parses cost columns into dst, which has one entry per event;
// missing trailing columns are zero.
func (p *parser) costs(dst []uint64, f []string) error {
	n := len(p.part.Events)
	if len(f) > n {
		return p.errorf(ErrSyntax, "%d costs: expected at most %d (events: %s)", len(f), n, shorten(strings.Join(p.part.Events, " ")))
	}
	clear(dst)
	for i, s := range f {
		v, err := parseNumber(s)
		if err != nil {
			sentinel := ErrSyntax
			if errors.Is(err, strconv.ErrRange) {
				sentinel = ErrOverflow
			}
			return p.errorf(sentinel, "cost of %s: %s: expected a number", p.part.Events[i], err)
		}
		dst[i] = v
	}
	return nil
}
