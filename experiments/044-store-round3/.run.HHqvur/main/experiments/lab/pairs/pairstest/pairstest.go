package pairstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Counts per operation of the fake subject at each commit.
const (
	BeforePerOp = 1000
	AfterPerOp  = 1010
)

// Repo is a scratch repository made by NewRepo.
type Repo struct {
	// Dir is the checkout; its working tree is at After.
	Dir string
	// Before and After are the full hashes of the two commits; Broken is a
	// third, tagged "broken", whose cmd/pure-count does not compile.
	Before, After, Broken string
}

// NewRepo creates a scratch repository in a temporary directory of t with
// three commits: before, after and broken (see Repo). files are extra files
// (path relative to the repository: content) committed in the before commit,
// for example an experiment's criteria. Commit dates are fixed, so the same
// files give the same hashes.
func NewRepo(t testing.TB, files map[string]string) *Repo {
	t.Helper()
	r := &Repo{Dir: t.TempDir()}
	write := func(path, content string) {
		t.Helper()
		p := filepath.Join(r.Dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", r.Dir, "-c", "user.name=pairstest",
			"-c", "user.email=pairstest@example.invalid", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	write("go.mod", "module fake\n\ngo 1.22\n")
	write("cmd/pure-count/main.go", FakeCount(BeforePerOp))
	for p, c := range files {
		write(p, c)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "before")
	r.Before = git("rev-parse", "HEAD")
	write("cmd/pure-count/main.go", FakeCount(AfterPerOp))
	git("commit", "-q", "-am", "after")
	r.After = git("rev-parse", "HEAD")
	write("cmd/pure-count/main.go", "package main\n\nfunc main() { this does not compile }\n")
	git("commit", "-q", "-am", "broken")
	r.Broken = git("rev-parse", "HEAD")
	git("tag", "broken")
	git("reset", "-q", "--hard", r.After)
	return r
}

// FakeCount returns the source of the fake cmd/pure-count, counting perOp
// events per operation.
func FakeCount(perOp int) string {
	s := strings.Replace(fakeCount, "PEROP", strconv.Itoa(perOp), 1)
	return strings.Replace(s, "AFTER_PER_OP", strconv.Itoa(AfterPerOp), 1)
}

const fakeCount = `// Command pure-count is a fake of the real one, for tests of the pairs runner.
package main

import (
	"os"
	"strconv"
	"strings"
	"time"
)

const perOp = PEROP

func main() {
	args := os.Args[1:]
	if len(args) == 0 || args[0] != "run" {
		os.Stderr.WriteString("usage: pure-count run [--backend B] [-e E] [-n N] [-r R] --json W\n")
		os.Exit(2)
	}
	backend, events, ops, repeats, workload := "perf", "", 100, 1, ""
	regions, gate := 1, false
	for i := 1; i < len(args); i++ {
		a := args[i]
		next := func() string { i++; return args[i] }
		switch a {
		case "--backend":
			backend = next()
		case "-e":
			events = next()
		case "-n":
			ops, _ = strconv.Atoi(next())
		case "-r":
			repeats, _ = strconv.Atoi(next())
		case "--regions":
			regions, _ = strconv.Atoi(next())
		case "--gate":
			gate = true
		case "--json", "--rerun":
		case "-h":
			os.Stderr.WriteString("Usage of pure-count run:\n  -gate\n    \tfake\n  -regions K\n    \tfake\n  -rerun\n    \tfake\n")
			os.Exit(2)
		default:
			workload = a
		}
	}
	if log := os.Getenv("FAKE_LOG"); log != "" {
		wd, _ := os.Getwd()
		n := 0
		for _, kv := range os.Environ() {
			n += len(kv) + 1
		}
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			f.WriteString(os.Args[0] + " " + wd + " " + strconv.Itoa(n) + "\n")
			f.Close()
		}
	}
	if workload == "crash" {
		os.Stderr.WriteString("fake pure-count: crashing as asked\npanic: boom\n")
		os.Exit(3)
	}
	if workload == "sleep" {
		os.Stderr.WriteString("fake pure-count: sleeping\n")
		time.Sleep(time.Minute)
	}
	if events == "" {
		events = "instructions"
	}
	if gate {
		gated(workload, backend, events, ops, regions)
		return
	}
	machine := ` + "`" + `{"kernel":"fake","cpu_model":"fake cpu","num_cpu":2,"pmus":[],"perf_event_paranoid":2,"goarch":"amd64","goos":"linux"}` + "`" + `
	q := func(s string) string { return strconv.Quote(s) }
	for _, ev := range strings.Split(events, ",") {
		var values []string
		for r := 1; r <= repeats; r++ {
			v := perOp * ops
			os.Stdout.WriteString("{\"kind\":\"run\",\"workload\":" + q(workload) + ",\"ops\":" + strconv.Itoa(ops) +
				",\"repeat\":" + strconv.Itoa(r) + ",\"event\":" + q(ev) + ",\"value\":" + strconv.Itoa(v) +
				",\"per_op\":" + strconv.Itoa(perOp) + ",\"source\":" + q(backend) + ",\"multiplexed\":false" +
				",\"wall_ns\":" + strconv.Itoa(1000*ops) + ",\"cpu_ns\":" + strconv.Itoa(900*ops) +
				",\"machine\":" + machine + "}\n")
			values = append(values, strconv.Itoa(perOp))
		}
		os.Stdout.WriteString("{\"kind\":\"summary\",\"workload\":" + q(workload) + ",\"event\":" + q(ev) +
			",\"source\":" + q(backend) + ",\"n\":" + strconv.Itoa(repeats) + ",\"min\":" + strconv.Itoa(perOp) +
			",\"median\":" + strconv.Itoa(perOp) + ",\"max\":" + strconv.Itoa(perOp) + ",\"spread\":0,\"values\":[" +
			strings.Join(values, ",") + "]}\n")
	}
}

// gated follows pure-count run --gate's protocol: ready on fd 4, then per
// region a go-ahead from fd 3, the region's lines, and done on fd 4. Each
// region is logged to FAKE_REGIONS as "PEROP REGION".
func gated(workload, backend, events string, ops, regions int) {
	goF, doneF := os.NewFile(3, "go"), os.NewFile(4, "done")
	doneF.Write([]byte{1})
	b := make([]byte, 1)
	for k := 1; k <= regions; k++ {
		if n, _ := goF.Read(b); n != 1 {
			os.Stderr.WriteString("fake pure-count: the caller closed the gate\n")
			os.Exit(4)
		}
		if workload == "crash-in-region-2" && k == 2 && perOp == AFTER_PER_OP {
			os.Stderr.WriteString("fake pure-count: crashing in region 2 as asked\npanic: boom\n")
			os.Exit(3)
		}
		if log := os.Getenv("FAKE_REGIONS"); log != "" {
			f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				f.WriteString(strconv.Itoa(perOp) + " " + strconv.Itoa(k) + "\n")
				f.Close()
			}
		}
		for _, ev := range strings.Split(events, ",") {
			os.Stdout.WriteString("{\"kind\":\"run\",\"workload\":" + strconv.Quote(workload) + ",\"ops\":" + strconv.Itoa(ops) +
				",\"repeat\":1,\"region\":" + strconv.Itoa(k) + ",\"event\":" + strconv.Quote(ev) +
				",\"value\":" + strconv.Itoa(perOp*ops) + ",\"per_op\":" + strconv.Itoa(perOp) +
				",\"source\":" + strconv.Quote(backend) + ",\"multiplexed\":false" +
				",\"wall_ns\":" + strconv.Itoa((perOp+k)*ops) + ",\"cpu_ns\":" + strconv.Itoa(900*ops) + "}\n")
		}
		doneF.Write([]byte{1})
	}
}
`
