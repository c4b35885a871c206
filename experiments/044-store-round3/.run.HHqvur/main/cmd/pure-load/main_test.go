package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestRun_Help_ListsEveryFlag(t *testing.T) {
	for _, arg := range []string{"-h", "--help"} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), []string{arg}, &out, &errb); err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
		for _, f := range []string{"-c ", "-d ", "-n ", "--pipeline", "--close", "--workload", "--prefix", "--timeout", "--json", "--cpuprofile", "-h, --help"} {
			if !strings.Contains(out.String(), f) {
				t.Errorf("%s: usage does not list %q", arg, f)
			}
		}
	}
}

func TestRun_BadFlags_ReportedOnceWithUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--bogus", "http://127.0.0.1:1"},
		{"-c", "4"},
		{"http://a:1", "http://b:1"},
		{"-d", "1s", "-n", "5", "http://127.0.0.1:1"},
	} {
		var out, errb bytes.Buffer
		err := run(context.Background(), args, &out, &errb)
		var u usageError
		if !errors.As(err, &u) || !u.reported {
			t.Errorf("%v: got %v, want a reported usage error", args, err)
			continue
		}
		if n := strings.Count(errb.String(), "pure-load: "); n != 1 || !strings.Contains(errb.String(), "usage:") {
			t.Errorf("%v: stderr %q, want the error once and the usage", args, errb.String())
		}
	}
}

func TestRun_JSON_OneLineWithTheFields(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "0123456789abcdef")
	}))
	defer ts.Close()
	var out, errb bytes.Buffer
	// The URL may stand before the flags too.
	err := run(context.Background(), []string{ts.URL, "-c", "2", "-n", "40", "--pipeline", "4", "--json"}, &out, &errb)
	if err != nil {
		t.Fatalf("run: %v (stderr %s)", err, errb.String())
	}
	if strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("stdout is not one line: %q", out.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"tool", "workload", "target", "connections", "pipeline", "keepalive", "duration_s",
		"requests", "ok", "non2xx", "errors", "ok_per_s", "latency_us", "client_cpu_s"} {
		if _, ok := m[k]; !ok {
			t.Errorf("the JSON line lacks %q: %s", k, out.String())
		}
	}
	if len(m) != 14 {
		t.Errorf("the JSON line has %d fields, want the 14 of the schema: %s", len(m), out.String())
	}
	errs := m["errors"].(map[string]any)
	for _, k := range []string{"connect", "write", "read", "timeout", "parse", "closed"} {
		if _, ok := errs[k]; !ok {
			t.Errorf("errors lacks %q", k)
		}
	}
	lat := m["latency_us"].(map[string]any)
	for _, k := range []string{"p50", "p90", "p99", "p999", "max"} {
		if _, ok := lat[k]; !ok {
			t.Errorf("latency_us lacks %q", k)
		}
	}
	if m["tool"] != "pure-load" || m["requests"] != 40.0 || m["ok"] != 40.0 || m["pipeline"] != 4.0 || m["keepalive"] != true {
		t.Errorf("unexpected values: %s", out.String())
	}
}

func TestRun_Summary_Human(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	defer ts.Close()
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"-c", "1", "-n", "3", "--close", ts.URL}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"a new connection per request", "requests 3: ok 0, non-2xx 3", "p99.9", "client CPU"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("summary lacks %q:\n%s", s, out.String())
		}
	}
}
