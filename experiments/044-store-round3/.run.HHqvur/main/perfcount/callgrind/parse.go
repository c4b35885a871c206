package callgrind

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// maxLineLen bounds one line of input; callgrind lines are short, but
// demangled C++ names can run to a few kilobytes.
const maxLineLen = 1 << 20

// Parse reads a callgrind output file from r. It stops at the first
// line it cannot read and returns a *SyntaxError that gives the line
// number and what was expected; a truncated file is an error as well.
// Lines that are well-formed but outside the supported subset are
// skipped and recorded in Profile.Warnings.
func Parse(r io.Reader) (*Profile, error) {
	return parse(r, "")
}

// ParseFile reads the callgrind output file name; errors carry the name.
func ParseFile(name string) (*Profile, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parse(f, name)
}

// fnKey identifies a function within a part.
type fnKey struct{ object, file, name string }

// lineKey identifies one position within a function.
type lineKey struct {
	file string
	line uint64
	addr uint64
}

// parser holds the state of one Parse call.
type parser struct {
	file   string
	lineNo int
	text   string
	prof   *Profile
	names  names

	// Per part.
	part      *Part
	inBody    bool // a body line was read: a header line starts a new part
	closed    bool // "totals:" was read: a header line starts a new part
	lineIdx   int  // index of "line" in Positions, -1 if none
	instrIdx  int  // index of "instr" in Positions, -1 if none
	functions map[fnKey]*Function
	lines     map[*Function]map[lineKey]*LineCost

	// Scratch space reused from line to line.
	fields []string
	cost   []uint64

	// Position state, reset at each part.
	object, srcFile string    // current "ob=" and source file ("fl=", "fi=", "fe=")
	fn              *fnKey    // current "fn="
	cur             *Function // the function of fn, once a line needed it
	curLines        map[lineKey]*LineCost
	last            []uint64 // subpositions of the previous self-cost line
	scratchPos      []uint64 // subpositions of a call or jump position line

	// Call state: "cob=" and "cfi=" apply to the next "cfn=", which names
	// the callee of the following "calls=" lines.
	cob, cfi       string
	hasCob, hasCfi bool
	callee         *fnKey
	pending        *Call // a "calls=" line waiting for its cost line
	pendingLine    int
	pendingJump    bool // a "jump=" or "jcnd=" line waiting for its position line
}

func parse(r io.Reader, file string) (*Profile, error) {
	p := &parser{file: file, prof: &Profile{Version: 1}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLineLen)
	for sc.Scan() {
		p.lineNo++
		p.text = strings.TrimRight(sc.Text(), "\r")
		if err := p.line(); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			p.lineNo++
			p.text = ""
			return nil, p.errorf(ErrSyntax, "line longer than %d bytes: expected a callgrind line", maxLineLen)
		}
		return nil, err
	}
	return p.finish()
}

// finish checks the end of input and returns the profile.
func (p *parser) finish() (*Profile, error) {
	p.text = ""
	if p.pending != nil {
		return nil, p.errorf(ErrTruncated, "file ends after the calls= line at line %d: expected its cost line", p.pendingLine)
	}
	if len(p.prof.Parts) == 0 {
		return nil, p.errorf(ErrNoEvents, "no parts: expected a header with an events: line")
	}
	for _, part := range p.prof.Parts {
		if part.Events == nil {
			p.lineNo = part.Line
			return nil, p.errorf(ErrNoEvents, "part has no events: line")
		}
	}
	return p.prof, nil
}

// errorf returns a *SyntaxError at the current line.
func (p *parser) errorf(sentinel error, format string, args ...any) error {
	return &SyntaxError{
		File: p.file,
		Line: p.lineNo,
		Text: shorten(p.text),
		Msg:  fmt.Sprintf(format, args...),
		Err:  sentinel,
	}
}

// warnf records a skipped line.
func (p *parser) warnf(format string, args ...any) {
	p.prof.Warnings = append(p.prof.Warnings, p.errorf(ErrSyntax, format, args...))
}

// line dispatches one input line.
func (p *parser) line() error {
	t := p.text
	if strings.TrimLeft(t, " \t") == "" || t[0] == '#' {
		return nil
	}
	if p.pending != nil || p.pendingJump {
		if !isCostLine(t) {
			return p.errorf(ErrSyntax, "expected the cost line of the calls=/jump= line at line %d", p.pendingLine)
		}
	}
	if isCostLine(t) {
		return p.costLine()
	}
	eq := strings.IndexByte(t, '=')
	colon := strings.IndexByte(t, ':')
	switch {
	case eq > 0 && (colon < 0 || eq < colon):
		return p.spec(t[:eq], t[eq+1:])
	case colon > 0:
		return p.header(t[:colon], strings.TrimLeft(t[colon+1:], " \t"))
	}
	return p.errorf(ErrSyntax, "expected a header line (key: value), a position line (key=name) or a cost line")
}

// isCostLine reports whether t starts like a subposition.
func isCostLine(t string) bool {
	c := t[0]
	return c >= '0' && c <= '9' || c == '+' || c == '-' || c == '*'
}
