package main

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// TestPprof_Endpoints: the hand-written --pprof listener answers the index,
// a heap profile and a wall-clock (fgprof) profile that parse as pprof,
// and 404 for an unknown profile.
func TestPprof_Endpoints(t *testing.T) {
	var stderr bytes.Buffer
	stop, err := servePprof("127.0.0.1:0", &stderr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	base := strings.TrimSpace(strings.TrimPrefix(strings.Fields(stderr.String())[2], "http://"))
	base = "http://" + strings.TrimSuffix(base, "/debug/pprof/")
	get := func(path string) (int, []byte) {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, b
	}
	if code, b := get("/debug/pprof/"); code != 200 || !strings.Contains(string(b), "heap") {
		t.Fatalf("index: %d %q", code, b)
	}
	for _, path := range []string{"/debug/pprof/heap?gc=1", "/debug/fgprof?seconds=1"} {
		code, b := get(path)
		if code != 200 {
			t.Fatalf("%s: %d %q", path, code, b)
		}
		p, err := profile.Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: not a pprof profile: %v", path, err)
		}
		if len(p.Sample) == 0 {
			t.Fatalf("%s: no samples", path)
		}
	}
	if code, b := get("/debug/pprof/nosuch"); code != 404 || !strings.Contains(string(b), "nosuch") {
		t.Fatalf("unknown profile: %d %q", code, b)
	}
}
