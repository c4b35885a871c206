package callgrind

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// parseNumber parses a callgrind Number: decimal digits, or "0x"
// followed by hexadecimal digits.
func parseNumber(s string) (uint64, error) {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		return strconv.ParseUint(s[2:], 16, 64)
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, fmt.Errorf("%q is not a number", shorten(s))
	}
	return strconv.ParseUint(s, 10, 64)
}

// parseSubposition parses one subposition relative to the same
// subposition of the previous cost line: "*" is the same value, "+N" and
// "-N" a difference, anything else an absolute Number.
func parseSubposition(s string, last uint64) (uint64, error) {
	switch {
	case s == "*":
		return last, nil
	case strings.HasPrefix(s, "+"):
		d, err := parseNumber(s[1:])
		if err != nil {
			return 0, err
		}
		v, carry := bits.Add64(last, d, 0)
		if carry != 0 {
			return 0, fmt.Errorf("subposition %s after %d overflows 64 bits", s, last)
		}
		return v, nil
	case strings.HasPrefix(s, "-"):
		d, err := parseNumber(s[1:])
		if err != nil {
			return 0, err
		}
		if d > last {
			return 0, fmt.Errorf("subposition %s after %d is negative", s, last)
		}
		return last - d, nil
	}
	return parseNumber(s)
}

// errCostOverflow marks an addition of costs that overflowed.
var errCostOverflow = errors.New("sum of costs overflows 64 bits")

// addCosts adds src into dst element by element; len(src) <= len(dst).
func addCosts(dst, src []uint64) error {
	for i, v := range src {
		s, carry := bits.Add64(dst[i], v, 0)
		if carry != 0 {
			return errCostOverflow
		}
		dst[i] = s
	}
	return nil
}
