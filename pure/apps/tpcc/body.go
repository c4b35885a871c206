package tpcc

// DecodeJSON decodes a New-Order body, {"w":1,"d":2,"c":3,"lines":[{"i":4,
// "w":1,"q":5},...],"now":6} as json.Marshal writes a Tx, without
// encoding/json (app.BodyDecoder): members in any order, JSON whitespace
// anywhere between tokens, integers without fraction or exponent of at
// most 18 digits. Anything else (an unknown or repeated member, a member
// name in other case or with escapes, null, another number, malformed
// JSON) makes it return false, and the runtime decodes the body with
// encoding/json instead, so every body decodes as encoding/json decodes
// it (TestDecodeJSON_AsEncodingJSON).
func (tx *Tx) DecodeJSON(b []byte) bool {
	p := scan{b: b}
	ok := p.object(func(name []byte) (uint8, bool) {
		switch string(name) {
		case "w":
			return 1, p.int(&tx.W)
		case "d":
			return 2, p.int(&tx.D)
		case "c":
			return 4, p.int(&tx.C)
		case "now":
			return 8, p.int(&tx.Now)
		case "lines":
			return 16, p.lines(&tx.Lines)
		}
		return 0, false
	})
	p.space()
	return ok && p.i == len(p.b)
}

// object decodes a JSON object whose members member reads: member is
// given each name, reads its value and returns the member's bit (each
// member at most once) and whether its value decoded; an unknown name
// returns false.
func (p *scan) object(member func(name []byte) (uint8, bool)) bool {
	if !p.is('{') {
		return false
	}
	if p.is('}') {
		return true
	}
	var seen uint8
	for {
		name, ok := p.name()
		if !ok {
			return false
		}
		bit, ok := member(name)
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		if p.is(',') {
			continue
		}
		return p.is('}')
	}
}

// lines decodes a JSON array of Line objects into *ls (an empty array
// gives an empty slice, not nil, as encoding/json does).
func (p *scan) lines(ls *[]Line) bool {
	if !p.is('[') {
		return false
	}
	out := make([]Line, 0, 16)
	if !p.is(']') {
		for {
			var l Line
			ok := p.object(func(name []byte) (uint8, bool) {
				switch string(name) {
				case "i":
					return 1, p.int(&l.I)
				case "w":
					return 2, p.int(&l.W)
				case "q":
					return 4, p.int(&l.Q)
				}
				return 0, false
			})
			if !ok {
				return false
			}
			out = append(out, l)
			if p.is(',') {
				continue
			}
			if !p.is(']') {
				return false
			}
			break
		}
	}
	*ls = out
	return true
}

// scan reads the tokens of a JSON text from position i.
type scan struct {
	b []byte
	i int
}

// space skips JSON whitespace.
func (p *scan) space() { p.i = skipSpace(p.b, p.i) }

// skipSpace returns the position of the first byte from i on that is
// not JSON whitespace (len(b) if none). The scan's methods work on b and
// i in locals, which the compiler keeps in registers, and store p.i once.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// is skips whitespace and then c, reporting whether c was there.
func (p *scan) is(c byte) bool {
	b := p.b
	i := skipSpace(b, p.i)
	if i < len(b) && b[i] == c {
		p.i = i + 1
		return true
	}
	p.i = i
	return false
}

// name reads a member name without escapes and the colon after it.
func (p *scan) name() ([]byte, bool) {
	b := p.b
	i := skipSpace(b, p.i)
	if i >= len(b) || b[i] != '"' {
		return nil, false
	}
	i++
	start := i
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			n := b[start:i]
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == ':' {
				p.i = i + 1
				return n, true
			}
			return nil, false
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
	}
	return nil, false
}

// int reads an integer of at most 18 digits (so it fits an int64) with no
// fraction or exponent into *v.
func (p *scan) int(v *int64) bool {
	b := p.b
	i := skipSpace(b, p.i)
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	start := i
	var n int64
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		n = n*10 + int64(b[i]-'0')
	}
	p.i = i
	digits := i - start
	if digits == 0 || digits > 18 || digits > 1 && b[start] == '0' {
		return false
	}
	if i < len(b) {
		if c := b[i]; c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	if neg {
		n = -n
	}
	*v = n
	return true
}
