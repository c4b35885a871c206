package judge

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ParseError is a problem with one line of a criteria file.
type ParseError struct {
	// File is the name the caller gave the file; Line counts from 1.
	File string
	Line int
	// Text is the line as written, without its comment.
	Text string
	// Msg says what was expected.
	Msg string
}

// Error returns "file:line: text: msg".
func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Text, e.Msg)
}

// ParseCriteria reads an experiment's criteria file, starting from
// DefaultCriteria. file names it in errors.
//
// The format is one setting per line:
//
//	# comments run from # to the end of the line; blank lines are ignored
//	time.max_worse = 3%             # time metric at most 3 % worse
//	instructions.max_higher = 1%    # instruction counts at most 1 % higher
//	min_clean_pairs = 5             # fewer pairs: verdict unknown
//	time.metric = paired_time       # or throughput, cpu_per_op, p50, p99, peak_rss
//	                                # (paired_time, the default, falls back to
//	                                # throughput for runs that lack it)
//	workload store-get instructions.max_higher = 0.5%
//
// A line starting with "workload NAME" overrides the setting for that
// workload only, whatever the order of the lines. Percentages must carry
// their % sign, so that 3 % cannot be mistaken for 0.03 or 300 %. A setting
// given twice for the same scope is an error.
//
// A bad line does not stop the parse: ParseCriteria returns the criteria
// from every good line, and all the bad lines' *ParseError joined.
func ParseCriteria(r io.Reader, file string) (Criteria, error) {
	c := DefaultCriteria
	c.Overrides = nil
	var errs []error
	seen := make(map[string]int) // "workload\x00key" → line
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		fail := func(format string, args ...any) {
			errs = append(errs, &ParseError{File: file, Line: line, Text: text, Msg: fmt.Sprintf(format, args...)})
		}
		left, right, ok := strings.Cut(text, "=")
		if !ok {
			fail("expected `key = value` or `workload NAME key = value`")
			continue
		}
		var workload, key string
		switch f := strings.Fields(left); {
		case len(f) == 1:
			key = f[0]
		case len(f) == 3 && f[0] == "workload":
			workload, key = f[1], f[2]
		default:
			fail("expected `key = value` or `workload NAME key = value` before the =")
			continue
		}
		value, vtext, err := parseSetting(key, strings.TrimSpace(right))
		if err != nil {
			fail("%v", err)
			continue
		}
		id := workload + "\x00" + key
		if first, dup := seen[id]; dup {
			fail("%s is already set on line %d", key, first)
			continue
		}
		seen[id] = line
		if workload == "" {
			c.Limits.set(key, value, vtext)
		} else {
			c.Overrides = append(c.Overrides, Override{Workload: workload, Key: key, Value: value, Text: vtext})
		}
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", file, err))
	}
	return c, errors.Join(errs...)
}

// parseSetting parses the value of key.
func parseSetting(key, s string) (value float64, text string, err error) {
	switch key {
	case KeyTimeMaxWorse, KeyInstructionsMaxHigher:
		num, ok := strings.CutSuffix(s, "%")
		f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if !ok || err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
			return 0, "", fmt.Errorf("expected a percentage such as 3%%, got %q", s)
		}
		return f / 100, "", nil
	case KeyMinCleanPairs:
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return 0, "", fmt.Errorf("expected a whole number of pairs, at least 1, got %q", s)
		}
		return float64(n), "", nil
	case KeyTimeMetric:
		if !isTimedMetric(s) {
			return 0, "", fmt.Errorf("expected one of throughput, cpu_per_op, p50, p99, peak_rss, got %q", s)
		}
		return 0, s, nil
	}
	return 0, "", fmt.Errorf("unknown key %q: expected %s", key, strings.Join(keys, ", "))
}
