package serve

// The fast path of the request parser: one pass over a plain, complete
// head (parseFast), behind which parse.go's general parser decides
// everything else.

import (
	"encoding/binary"
	"math/bits"
)

// http11 and http10 are "HTTP/1.1" and "HTTP/1.0" read as little-endian
// words.
var (
	http11 = binary.LittleEndian.Uint64([]byte("HTTP/1.1"))
	http10 = binary.LittleEndian.Uint64([]byte("HTTP/1.0"))
	getSP  = binary.LittleEndian.Uint32([]byte("GET "))
	// hostWord is "host" as a little-endian word. A word of four bytes
	// ORed with 0x20 in each equals it only when the bytes are h, o, s, t
	// in either case: each letter's only other byte that ORs to it is its
	// upper case.
	hostWord = binary.LittleEndian.Uint32([]byte("host"))
)

// parseFast parses the common head in one pass: a token method, an
// origin-form target, HTTP/1.1 or HTTP/1.0, and header lines NAME: VALUE
// whose values hold no tab, all complete in buf (within maxHead) and each
// line ended by CRLF. It returns the head's length, or 0 when buf holds
// anything else (an incomplete head, a tab, a malformed or refused line,
// blank lines before the request): then parseHeadSlow decides, from
// scratch. Where it returns a length, the slow parser returns the same
// length and fields (TestParseFast_AsSlow, FuzzParseRequest).
//
// Why: the slow parser finds each line with bytes.IndexByte, then walks
// it again for its parts; the call's set-up costs more than the search on
// lines of 20 to 40 bytes. Here each byte is looked at once (the target
// and names through tables, values eight bytes at a time), and the
// version is compared as one word.
func parseFast(buf []byte, maxHead int, r *request) int {
	if len(buf) > maxHead {
		buf = buf[:maxHead]
	}
	i := 0
	if len(buf) >= 4 && binary.LittleEndian.Uint32(buf) == getSP {
		i = 3
	} else {
		for i < len(buf) && tokenTable[buf[i]] {
			i++
		}
	}
	if i == 0 || len(buf)-i < 2 || buf[i] != ' ' || buf[i+1] != '/' {
		return 0
	}
	m := buf[:i]
	t0 := i + 1
	q := -1
	j := t0 + 1
	for ; ; j++ {
		j = targetStop(buf, j)
		if j == len(buf) {
			return 0
		}
		if targetClass[buf[j]] == targetRefused {
			break
		}
		if q < 0 {
			q = j // the first '?'
		}
	}
	// " HTTP/1.x\r\n"
	if len(buf)-j < 11 || buf[j] != ' ' || buf[j+9] != '\r' || buf[j+10] != '\n' {
		return 0
	}
	var minor uint8
	switch binary.LittleEndian.Uint64(buf[j+1:]) {
	case http11:
		minor = 1
	case http10:
	default:
		return 0
	}
	r.methodRaw = m
	r.method = methodOf(m)
	t := buf[t0:j]
	r.target = t
	if q >= 0 {
		r.path, r.query = buf[t0:q], buf[q+1:j]
	} else {
		r.path = t
	}
	r.minor = minor
	r.close = minor == 0
	pos := j + 11
	var h headerState
	for {
		if len(buf)-pos < 2 {
			return 0
		}
		if buf[pos] == '\r' {
			if buf[pos+1] != '\n' {
				return 0
			}
			break
		}
		k := pos
		host := len(buf)-pos >= 5 && binary.LittleEndian.Uint32(buf[pos:])|0x20202020 == hostWord && buf[pos+4] == ':'
		if host {
			k += 4 // Host, in any case: see hostWord
		} else {
			for k < len(buf) && tokenTable[buf[k]] {
				k++
			}
			if k == pos || k == len(buf) || buf[k] != ':' {
				return 0
			}
		}
		e := ctlIndex(buf, k+1)
		if len(buf)-e < 2 || buf[e] != '\r' || buf[e+1] != '\n' {
			return 0
		}
		if host {
			// What known does for Host; its value is not used.
			if h.hosts++; h.hosts > 1 {
				return 0
			}
		} else if h.known(buf[pos:k], trimOWS(buf[k+1:e]), r) != nil {
			return 0
		}
		pos = e + 2
	}
	if h.finish(r) != nil {
		return 0
	}
	r.headLen = pos + 2
	return pos + 2
}

// ctlIndex returns the index of the first byte of b at or after i that is
// under 0x20 (a control byte, tab included) or 0x7f, or len(b) when there
// is none. It tests eight bytes at a time; the last word is read ending at
// b's end and shifted down to start at i, which fills it with zero bytes
// from len(b) on, so that the first of them stops the search there. The
// lowest flagged byte of a word is exact (see plainWord).
func ctlIndex(b []byte, i int) int {
	for ; len(b)-i >= 8; i += 8 {
		if m := ctlMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if i == len(b) {
		return i
	}
	if len(b) >= 8 {
		at := len(b) - 8
		x := binary.LittleEndian.Uint64(b[at:]) >> (8 * (i - at))
		return i + bits.TrailingZeros64(ctlMask(x))>>3
	}
	for ; i < len(b); i++ {
		if c := b[i]; c < ' ' || c == 0x7f {
			return i
		}
	}
	return i
}

// targetStop returns the index of the first byte of b at or after i that
// is not targetPlain ('?', or a byte a target refuses), or len(b) when
// there is none. It tests eight bytes at a time, then the rest one by one.
func targetStop(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; len(b)-i >= 8; i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		m := (x-0x21*ones)&^x&highs | x&highs // under 0x21, or from 0x80
		y := x ^ 0x7f*ones
		m |= (y - ones) &^ y & highs
		y = x ^ '#'*ones
		m |= (y - ones) &^ y & highs
		y = x ^ '?'*ones
		m |= (y - ones) &^ y & highs
		if m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(b); i++ {
		if targetClass[b[i]] != targetPlain {
			return i
		}
	}
	return i
}

// ctlMask has the high bit of each byte of x that is under 0x20 or is
// 0x7f set, and maybe of bytes above such a byte; never below the first.
func ctlMask(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (x - 0x20*ones) &^ x & highs
	y := x ^ 0x7f*ones
	return below | (y-ones)&^y&highs
}
