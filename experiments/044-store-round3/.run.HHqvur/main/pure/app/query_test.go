package app

import (
	"encoding/json"
	"net/url"
	"strconv"
	"testing"
)

// FuzzParseInt: parseInt accepts exactly what strconv.ParseInt(s, 10, 64)
// accepts, with the same value.
func FuzzParseInt(f *testing.F) {
	for _, s := range []string{"0", "-0", "+5", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "-9223372036854775809", "00000000000000000000042", "", "-", "+", "1_000", "0x10", " 1", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseInt([]byte(s))
		want, err := strconv.ParseInt(s, 10, 64)
		if ok != (err == nil) || ok && got != want {
			t.Errorf("parseInt(%q) = %d, %v; strconv: %d, %v", s, got, ok, want, err)
		}
	})
}

// FuzzUnescape: unescape decodes exactly as url.QueryUnescape does.
func FuzzUnescape(f *testing.F) {
	for _, s := range []string{"a+b", "%41%42", "%", "%4", "%zz", "%2B5", "caf%C3%A9", "100%25", "%%41"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := unescape(nil, []byte(s))
		want, err := url.QueryUnescape(s)
		if ok != (err == nil) || ok && string(got) != want {
			t.Errorf("unescape(%q) = %q, %v; url.QueryUnescape: %q, %v", s, got, ok, want, err)
		}
	})
}

// FuzzJSONString: appendJSONString matches encoding/json for valid UTF-8.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"plain", `q"b\`, "<a>&", "tab\t\n\r\x01\x1f", "Zoë", "\u2028\u2029", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("appendJSONString(%q) = %s, json.Marshal: %s", s, got, want)
		}
	})
}
