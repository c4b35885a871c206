package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parsing a call's query string and body into its fields. It runs on the
// caller's goroutine (a connection worker) in Submit, so the owner only
// applies calls that are well formed. The query is form-encoded: pairs
// separated by '&', name and value by '=', '+' is a space and %XX a byte.
// Every declared field is required; unknown and repeated fields are
// refused; a Rows view also takes from and count.

// maxFields bounds an endpoint's fields and a view's columns (a bit each
// in a uint64 mask, with the page's pseudo-fields).
const maxFields = 61

// Pseudo-field indexes of a Rows view's page fields.
const (
	fieldFrom  = maxFields
	fieldCount = maxFields + 1
	fieldCols  = maxFields + 2
)

// parse fills c.args (and c.from, c.count) from c.Query and c.Body for ep,
// or returns the 400 answer's message.
func (c *Call) parse(ep *endpoint) string {
	n := len(ep.fields)
	if cap(c.args) < n {
		c.args = make([]value, n)
	}
	c.args = c.args[:n]
	clear(c.args)
	c.from, c.count, c.want, c.json = 0, DefaultCount, 1<<len(ep.cols)-1, nil
	var have uint64
	q := c.Query
	for len(q) > 0 {
		pair := q
		if i := bytes.IndexByte(q, '&'); i >= 0 {
			pair, q = q[:i], q[i+1:]
		} else {
			q = nil
		}
		if len(pair) == 0 {
			continue
		}
		rawName, rawVal := pair, []byte(nil)
		if i := bytes.IndexByte(pair, '='); i >= 0 {
			rawName, rawVal = pair[:i], pair[i+1:]
		}
		var ok bool
		if c.buf, ok = unescape(c.buf[:0], rawName); !ok {
			return badEscape(rawName)
		}
		idx := fieldIndex(ep, c.buf)
		if idx < 0 {
			return unknownField(ep, c.buf)
		}
		name := fieldName(ep, idx)
		if idx < maxFields && ep.fields[idx].Body {
			return fmt.Sprintf("field %q is the request body, not a query field; send it as the body", name)
		}
		if have&(1<<idx) != 0 {
			return fmt.Sprintf("field %q: given twice; give it once", name)
		}
		have |= 1 << idx
		if c.buf, ok = unescape(c.buf[:0], rawVal); !ok {
			return badEscape(rawVal)
		}
		if msg := c.setField(ep, idx, name, c.buf); msg != "" {
			return msg
		}
	}
	for i, f := range ep.fields {
		if f.Body || have&(1<<i) != 0 {
			continue
		}
		if f.Type == Int {
			return fmt.Sprintf("field %q: missing; add ?%s=<integer>", f.Name, f.Name)
		}
		return fmt.Sprintf("field %q: missing; add ?%s=<text>", f.Name, f.Name)
	}
	if ep.body >= 0 && ep.fields[ep.body].Type == JSON {
		f := &ep.fields[ep.body]
		v := f.New()
		if err := json.Unmarshal(c.Body, v); err != nil {
			return fmt.Sprintf("field %q (the body): %v; send a JSON body of the input's shape", f.Name, err)
		}
		c.json = v
	} else if ep.body >= 0 {
		if !utf8.Valid(c.Body) {
			return fmt.Sprintf("field %q (the body): not valid UTF-8; send UTF-8 text", ep.fields[ep.body].Name)
		}
		c.args[ep.body].s = string(c.Body)
	} else if ep.kind == Input && len(c.Body) > 0 {
		return fmt.Sprintf("input %q takes no body; send an empty body", ep.name)
	}
	return ""
}

// setField stores the decoded value v of field idx.
func (c *Call) setField(ep *endpoint, idx int, name string, v []byte) string {
	if idx == fieldCols {
		return c.pick(ep, v)
	}
	if idx >= maxFields {
		n, ok := parseInt(v)
		switch {
		case !ok:
			return notInteger(name, v)
		case idx == fieldFrom && n < 0:
			return fmt.Sprintf("field %q: %d is out of range; use 0 or more", name, n)
		case idx == fieldCount && (n < 0 || n > int64(ep.maxCount)):
			return fmt.Sprintf("field %q: %d is out of range; use 0 to %d", name, n, ep.maxCount)
		}
		if idx == fieldFrom {
			c.from = int(min(n, 1<<40)) // beyond any table: an empty page
		} else {
			c.count = int(n)
		}
		return ""
	}
	switch ep.fields[idx].Type {
	case Int:
		n, ok := parseInt(v)
		if !ok {
			return notInteger(name, v)
		}
		c.args[idx].i = n
	case Text:
		if !utf8.Valid(v) {
			return fmt.Sprintf("field %q: not valid UTF-8; percent-encode UTF-8 text", name)
		}
		c.args[idx].s = string(v)
	}
	return ""
}

// fieldIndex returns the index of the field named name, a page
// pseudo-index, or -1.
func fieldIndex(ep *endpoint, name []byte) int {
	for i := range ep.fields {
		if ep.fields[i].Name == string(name) {
			return i
		}
	}
	if ep.answer == Rows {
		switch string(name) {
		case "from":
			return fieldFrom
		case "count":
			return fieldCount
		case "cols":
			if ep.pickCols {
				return fieldCols
			}
		}
	}
	return -1
}

func fieldName(ep *endpoint, idx int) string {
	switch idx {
	case fieldFrom:
		return "from"
	case fieldCount:
		return "count"
	case fieldCols:
		return "cols"
	}
	return ep.fields[idx].Name
}

func unknownField(ep *endpoint, name []byte) string {
	var names []byte
	for _, f := range ep.fields {
		if !f.Body {
			names = append(append(names, ", "...), f.Name...)
		}
	}
	if ep.answer == Rows {
		names = append(names, ", from, count"...)
		if ep.pickCols {
			names = append(names, ", cols"...)
		}
	}
	what := "input"
	if ep.kind == View {
		what = "view"
	}
	if len(names) == 0 {
		return fmt.Sprintf("unknown field %q; %s %q takes no query fields", name, what, ep.name)
	}
	return fmt.Sprintf("unknown field %q; fields: %s", name, names[2:])
}

// pick sets c.want from ?cols=a,b: the columns of a Rows view to answer.
func (c *Call) pick(ep *endpoint, v []byte) string {
	c.want = 0
	for len(v) > 0 {
		name := v
		if i := bytes.IndexByte(v, ','); i >= 0 {
			name, v = v[:i], v[i+1:]
		} else {
			v = nil
		}
		found := false
		for i := range ep.cols {
			if ep.cols[i].name == string(name) {
				c.want |= 1 << i
				found = true
			}
		}
		if !found {
			names := make([]string, len(ep.cols))
			for i := range ep.cols {
				names[i] = ep.cols[i].name
			}
			return fmt.Sprintf("field \"cols\": no column %q; columns: %s", name, strings.Join(names, ", "))
		}
	}
	if c.want == 0 {
		return `field "cols": empty; name one or more columns, separated by commas`
	}
	return ""
}

func notInteger(name string, v []byte) string {
	return fmt.Sprintf("field %q: %q is not an integer", name, v)
}

func badEscape(raw []byte) string {
	return fmt.Sprintf("query: bad percent-encoding in %q; write %%XX with two hex digits, and '%%' as %%25", raw)
}

// parseInt parses a decimal int64 with an optional sign, as
// strconv.ParseInt(s, 10, 64) does, without allocating.
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var u uint64
	for _, ch := range b {
		if ch < '0' || ch > '9' || u > (1<<63)/10 {
			return 0, false
		}
		if u = u*10 + uint64(ch-'0'); u > 1<<63 {
			return 0, false
		}
	}
	switch {
	case !neg && u > 1<<63-1, neg && u > 1<<63:
		return 0, false
	case neg:
		return -int64(u), true
	}
	return int64(u), true
}

// unescape appends the form-decoding of s to dst: '+' is a space, %XX a
// byte. ok is false on a malformed escape.
func unescape(dst, s []byte) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '+':
			dst = append(dst, ' ')
		case '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return dst, false
			}
			dst = append(dst, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			dst = append(dst, ch)
		}
	}
	return dst, true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// appendInt is strconv.AppendInt in base 10.
func appendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }
