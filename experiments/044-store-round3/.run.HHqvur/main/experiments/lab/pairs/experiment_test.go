package pairs

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestNextExperiment(t *testing.T) {
	dir := t.TempDir()
	b, a := "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	got, err := NextExperiment(filepath.Join(dir, "missing"), b, a)
	if err != nil || got != "001-pairs-1111111-2222222" {
		t.Fatalf("got %q, %v", got, err)
	}
	for _, d := range []string{"003-x", "011-pairs-1111111-2222222", "notnumbered", "0042-four-digits"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
	}
	os.WriteFile(filepath.Join(dir, "099-a-file"), nil, 0o644)
	if got, _ := NextExperiment(dir, b, a); got != "043-pairs-1111111-2222222" {
		t.Errorf("got %q", got)
	}
	if got := latestExperiment(dir, b, a); got != "011-pairs-1111111-2222222" {
		t.Errorf("latest = %q", got)
	}
	if got := latestExperiment(dir, a, b); got != "" {
		t.Errorf("latest for swapped commits = %q", got)
	}
}

func TestCheckExperimentName(t *testing.T) {
	for name, ok := range map[string]bool{
		"012-faster-sort": true, "a": true, "": false, "../x": false, "a/b": false, ".hidden": false,
	} {
		if err := checkExperimentName(name); (err == nil) != ok {
			t.Errorf("%q: %v", name, err)
		}
	}
}

func TestFmtDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		3456 * time.Microsecond:               "3ms",
		1234 * time.Millisecond:               "1.2s",
		4*time.Minute + 5*time.Second:         "4m05s",
		62*time.Minute + 3*time.Second:        "1h02m03s",
		59*time.Second + 990*time.Millisecond: "1m00s",
	} {
		if got := fmtDuration(d); got != want {
			t.Errorf("fmtDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
