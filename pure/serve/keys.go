package serve

import (
	"bytes"
	"strconv"
)

// MaxKeyBytes is the longest document key, in bytes after percent-decoding.
const MaxKeyBytes = 256

// appendKey percent-decodes the document key k (the path after /docs/) and
// appends it to dst, or returns an error naming what is wrong with it:
// an empty key, a bad or encoded-slash escape, a NUL or other control byte,
// a "." or ".." segment, or more than MaxKeyBytes bytes. A raw '/' is
// allowed and separates segments; an encoded one (%2F) is refused so a key
// has one spelling.
func appendKey(dst, k []byte) ([]byte, error) {
	if len(k) == 0 {
		return dst, &httpError{400, "empty document key; use /docs/<key>"}
	}
	if len(k) <= MaxKeyBytes {
		if marks := keyMarks(k); marks&keyDecode == 0 {
			// Nothing to decode or refuse byte by byte: the common case.
			if marks&keyDot != 0 && dotSegment(k) {
				return dst, errDotSegment
			}
			return append(dst, k...), nil
		}
	}
	start := len(dst)
	for i := 0; i < len(k); i++ {
		b := k[i]
		if b == '%' {
			if i+2 >= len(k) || unhex(k[i+1]) < 0 || unhex(k[i+2]) < 0 {
				return dst, &httpError{400, "bad percent escape in document key; write %XX with two hex digits"}
			}
			b = byte(unhex(k[i+1])<<4 | unhex(k[i+2]))
			i += 2
			if b == '/' {
				return dst, &httpError{400, "encoded slash (%2F) in document key; write '/' as it is"}
			}
		}
		if b < ' ' || b == 0x7f {
			if b == 0 {
				return dst, &httpError{400, "NUL byte in document key"}
			}
			return dst, &httpError{400, "control byte in document key"}
		}
		dst = append(dst, b)
		if len(dst)-start > MaxKeyBytes {
			return dst, &httpError{400, "document key longer than " + strconv.Itoa(MaxKeyBytes) + " bytes; use a shorter key"}
		}
	}
	if dotSegment(dst[start:]) {
		return dst, errDotSegment
	}
	return dst, nil
}

var errDotSegment = &httpError{400, "document key with a \".\" or \"..\" segment; name documents without them"}

// Marks of key bytes (keyMarks).
const (
	keyDecode = 1 // '%', a control byte or DEL: appendKey must look at k byte by byte
	keyDot    = 2 // '.': a "." or ".." segment is possible
)

// keyMark is each byte's marks.
var keyMark = func() (t [256]uint8) {
	for b := range t {
		switch {
		case b < ' ' || b == 0x7f || b == '%':
			t[b] = keyDecode
		case b == '.':
			t[b] = keyDot
		}
	}
	return t
}()

// keyMarks returns the union of the marks of k's bytes: without keyDecode
// k is its own decoding, and without keyDot it has no dot segment.
func keyMarks(k []byte) uint8 {
	var m uint8
	for _, b := range k {
		m |= keyMark[b]
	}
	return m
}

// dotSegment reports whether a '/'-separated segment of k is "." or "..".
func dotSegment(k []byte) bool {
	if bytes.IndexByte(k, '.') < 0 {
		return false
	}
	seg := 0
	for i := 0; i <= len(k); i++ {
		if i == len(k) || k[i] == '/' {
			s := k[seg:i]
			if (len(s) == 1 && s[0] == '.') || (len(s) == 2 && s[0] == '.' && s[1] == '.') {
				return true
			}
			seg = i + 1
		}
	}
	return false
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// parseETag reads a strong entity tag holding a revision, "123", as sent
// in If-Match. It returns false for anything else.
func parseETag(v []byte) (uint64, bool) {
	if len(v) < 3 || len(v) > 21 || v[0] != '"' || v[len(v)-1] != '"' {
		return 0, false
	}
	var n uint64
	for _, b := range v[1 : len(v)-1] {
		if !isDigit(b) {
			return 0, false
		}
		n = n*10 + uint64(b-'0')
	}
	return n, true
}
