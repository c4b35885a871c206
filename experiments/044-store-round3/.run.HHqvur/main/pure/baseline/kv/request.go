package kv

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of the contract's fields, as the baselines enforce them.
const (
	// MaxKeyLen is the longest document key, in bytes.
	MaxKeyLen = 200
	// MaxNameLen is the longest scoreboard name, in bytes.
	MaxNameLen = 64
	// MaxBody is the largest request body accepted, in bytes.
	MaxBody = 8 << 20
	// DefaultCount and MaxCount are the leaders page size when count is
	// missing, and its largest accepted value.
	DefaultCount = 20
	MaxCount     = 1000
)

// CheckKey reports whether key can name a document: 1 to MaxKeyLen bytes
// of letters, digits, '.', '_', '-' and '~', not starting with '.'.
func CheckKey(key string) error {
	if key == "" {
		return fmt.Errorf("empty document key: use /docs/<key>")
	}
	if len(key) > MaxKeyLen {
		return fmt.Errorf("document key of %d bytes is over the limit of %d", len(key), MaxKeyLen)
	}
	if key[0] == '.' {
		return fmt.Errorf("document key %q starts with '.': keys start with a letter, digit, '_', '-' or '~'", key)
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' || c == '~') {
			return fmt.Errorf("document key %q has byte %q at %d: keys use letters, digits, '.', '_', '-', '~'", key, c, i)
		}
	}
	return nil
}

// CheckName reports whether name can be a scoreboard name: 1 to
// MaxNameLen bytes of UTF-8 without control characters.
func CheckName(name string) error {
	if name == "" {
		return fmt.Errorf("empty name: send the name as the request body")
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("name of %d bytes is over the limit of %d", len(name), MaxNameLen)
	}
	if !utf8.ValidString(name) {
		return fmt.Errorf("name is not UTF-8")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("name %q has a control character", name)
		}
	}
	return nil
}

// ParseIfMatch parses an If-Match value: a quoted decimal revision.
func ParseIfMatch(v string) (uint64, error) {
	s, ok := strings.CutPrefix(v, `"`)
	if ok {
		s, ok = strings.CutSuffix(s, `"`)
	}
	rev, err := strconv.ParseUint(s, 10, 64)
	if !ok || err != nil {
		return 0, fmt.Errorf("If-Match %q is not a quoted decimal revision: send the ETag of your last GET or PUT, e.g. \"3\"", v)
	}
	return rev, nil
}

// ETag is the quoted decimal revision.
func ETag(rev uint64) string { return `"` + uitoa(rev) + `"` }

// ParsePoints parses the score input's points field.
func ParsePoints(v string, present bool) (int64, error) {
	if !present {
		return 0, fmt.Errorf("field \"points\" is missing: use /inputs/score?points=N")
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("field \"points\": %q is not a decimal integer", v)
	}
	return n, nil
}

// ParsePage parses the leaders view's from and count fields; a missing
// field (present false) takes its default, 0 and DefaultCount.
func ParsePage(from string, hasFrom bool, count string, hasCount bool) (int, int, error) {
	f, c := 0, DefaultCount
	var err error
	if hasFrom {
		if f, err = strconv.Atoi(from); err != nil || f < 0 {
			return 0, 0, fmt.Errorf("field \"from\": %q is not a whole number >= 0", from)
		}
	}
	if hasCount {
		if c, err = strconv.Atoi(count); err != nil || c < 0 {
			return 0, 0, fmt.Errorf("field \"count\": %q is not a whole number >= 0", count)
		}
		if c > MaxCount {
			return 0, 0, fmt.Errorf("field \"count\": %d is over the limit of %d rows: page with from", c, MaxCount)
		}
	}
	return f, c, nil
}

// Views and inputs of the scoreboard, as error messages name them.
const (
	ViewNames  = "total, leaders"
	InputNames = "score"
)

// StatusWord is the lower-case status text that starts an error body
// (`not found: ...`).
func StatusWord(code int) string {
	switch code {
	case 400:
		return "bad request"
	case 404:
		return "not found"
	case 405:
		return "method not allowed"
	case 412:
		return "precondition failed"
	case 413:
		return "content too large"
	case 500:
		return "internal server error"
	case 503:
		return "service unavailable"
	}
	return "status " + strconv.Itoa(code)
}

// ErrorBody is the contract's error body: the status word, the message
// and a newline.
func ErrorBody(code int, msg string) string { return StatusWord(code) + ": " + msg + "\n" }
