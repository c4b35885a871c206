package note

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workbench/experiments/lab/expdir"
)

// Runs that record their native processes (measurements with a floor)
// get a processes column, before / after, and the controls say how the
// sides took turns.
func TestWrite_NativeProcesses(t *testing.T) {
	c := genCases()["same"]
	controls := map[string]any{"alternation": "regions"}
	for k, v := range pinned {
		controls[k] = v
	}
	c.meta["controls"] = controls
	dir := filepath.Join(t.TempDir(), "009-procs")
	if err := writeCase(dir, c); err != nil {
		t.Fatal(err)
	}
	// Pair 2's before side ran 6 processes, every other side 4; a
	// callgrind measurement is not a native process.
	path := filepath.Join(dir, expdir.RunsFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		n := 4
		if m["pair"] == 2.0 && m["side"] == "before" {
			n = 6
		}
		var ms []map[string]any
		for range n {
			ms = append(ms, map[string]any{"backend": "perf", "floor_ns_per_op": 100.0})
		}
		m["measurements"] = append(ms, map[string]any{"backend": "callgrind"})
		nb, _ := json.Marshal(m)
		out.Write(append(nb, '\n'))
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := e.Write(&sb); err != nil {
		t.Fatal(err)
	}
	note := sb.String()
	for _, want := range []string{
		"| processes | status |",
		" 6 / 4 | clean  |",
		" 4 / 4 | clean  |",
		"Processes: the fresh native processes before / after ran in that pair",
		"| native (perf) turns         | region by region:",
	} {
		if !strings.Contains(note, want) {
			t.Errorf("note lacks %q:\n%s", want, note)
		}
	}
}
