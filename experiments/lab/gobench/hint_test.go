package gobench

import (
	"strings"
	"testing"
)

// A failed benchmark's output names what it lacked: a program, the
// network; other failures get no guess.
func TestRunHint(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{`    x_test.go:9: exec: "protoc": executable file not found in $PATH`, "a program this machine lacks"},
		{"    x_test.go:9: dial tcp 192.0.2.1:443: connect: network is unreachable", "network service"},
		{"    x_test.go:9: lookup example.com: no such host", "network service"},
		{"panic: runtime error: index out of range [3] with length 3", ""},
	} {
		got := runHint(tc.out)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("runHint(%q) = %q, want it to name %q", tc.out, got, tc.want)
		}
	}
}
