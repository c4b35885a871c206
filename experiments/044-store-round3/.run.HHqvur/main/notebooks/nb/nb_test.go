package nb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const sample = "# A lesson\n\nSome text with `code`.\n\n```go\n// not run\n```\n\n" +
	"```sh run id=hello checked\necho hello\n```\n\n" +
	"<!-- output hello -->\n```text\nhello\n```\n<!-- end output hello -->\n\n" +
	"~~~~ text\n```sh run id=inside-a-fence checked\n~~~~\n\n" +
	"```sh run id=times varies timeout=30s plot=p.png\necho 1.2ms\n```\n\n" +
	"<!-- output times -->\n````text\n```\n1.2ms\n````\n![times](01-x/p.png)\n<!-- end output times -->\n" +
	"\n```sh run id=new checked\necho new\n```\nlast line, no newline"

func TestParse_Render_RoundTrip_ByteForByte(t *testing.T) {
	for _, src := range []string{sample, strings.ReplaceAll(sample, "\n", "\r\n"), "", "text only\n"} {
		book, err := Parse(src)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		if got := book.Render(); got != src {
			t.Errorf("Render changed an untouched notebook:\n%s", Diff(src, got))
		}
	}
}

func TestParse_Cells(t *testing.T) {
	book, err := Parse(sample)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range book.Cells {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, ",") != "hello,times,new" {
		t.Fatalf("cells %v, want hello,times,new (the block inside the ~~~~ fence is text)", ids)
	}
	h, tm, nw := book.Cells[0], book.Cells[1], book.Cells[2]
	if h.Kind != Checked || h.Code != "echo hello\n" || h.Output == nil || h.Output.Text != "hello" || h.Timeout != DefaultTimeout {
		t.Errorf("hello = %+v, output %+v", h, h.Output)
	}
	if tm.Kind != Varies || tm.Timeout != 30*time.Second || tm.Plot != "p.png" ||
		tm.Output == nil || tm.Output.Text != "```\n1.2ms" || tm.Output.Image != "01-x/p.png" {
		t.Errorf("times = %+v, output %+v", tm, tm.Output)
	}
	if nw.Output != nil {
		t.Errorf("new has output %+v, want none", nw.Output)
	}
}

func TestRender_ChangedOutput_OnlyItsRegionChanges(t *testing.T) {
	book, _ := Parse(sample)
	book.Cells[0].SetOutput(Output{Text: "hello"}) // same: nothing changes
	if got := book.Render(); got != sample {
		t.Fatalf("an unchanged output changed the notebook:\n%s", Diff(sample, got))
	}
	book.Cells[0].SetOutput(Output{Text: "bonjour"})
	book.Cells[2].SetOutput(Output{Text: "new"})
	got := book.Render()
	want := strings.Replace(sample, "```text\nhello\n```", "```text\nbonjour\n```", 1)
	want = strings.Replace(want, "echo new\n```\n", "echo new\n```\n\n<!-- output new -->\n```text\nnew\n```\n<!-- end output new -->\n\n", 1)
	if got != want {
		t.Fatalf("Render:\n%s", Diff(want, got))
	}
	again, err := Parse(got)
	if err != nil {
		t.Fatal(err)
	}
	if again.Cells[2].Output == nil || again.Cells[2].Output.Text != "new" || again.Render() != got {
		t.Fatalf("the rewritten notebook does not read back: %+v", again.Cells[2].Output)
	}
}

func TestParse_BadNotebooks_SayWhatToDo(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"```sh run checked\necho\n```\n", "line 1: cell has no id"},
		{"```sh run id=a\necho\n```\n", "neither checked nor varies"},
		{"```sh run id=a checked varies\n```\n", "both checked and varies"},
		{"```py run id=a checked\n```\n", `language "py"`},
		{"```sh run id=a checked\n```\n```sh run id=a checked\n```\n", `line 3: cell id "a" is already used on line 1`},
		{"```sh run id=a checked colour=red\n```\n", `unknown cell attribute "colour=red"`},
		{"```sh run id=a checked timeout=soon\n```\n", "timeout=soon"},
		{"```sh run id=a checked\necho\n", "line 1: code block never closed"},
		{"<!-- output a -->\n```text\n```\n<!-- end output a -->\n", "has no cell with that id"},
		{"```sh run id=a checked\n```\n<!-- output a -->\n```text\nx\n```\n", "has no \"<!-- end output a -->\" line"},
		{"```sh run id=a checked\n```\n<!-- output a -->\nprose\n<!-- end output a -->\n", "unexpected text inside the output region"},
	} {
		_, err := Parse(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tc.src, err, tc.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	if got := Normalize("a  \r\nb\t\n\n\n"); got != "a\nb" {
		t.Errorf("Normalize = %q", got)
	}
}

func TestDiff_ShowsChangedLinesWithContext(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8"
	b := "1\n2\n3\n4\n5\n6x\n7\n8"
	want := "  …\n  4\n  5\n- 6\n+ 6x\n  7\n  8"
	if got := Diff(a, b); got != want {
		t.Errorf("Diff =\n%s\nwant\n%s", got, want)
	}
}

// writeNotebook makes a module root with one notebook and returns its path.
func writeNotebook(t *testing.T, src string) (root, file string) {
	t.Helper()
	root = t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "notebooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(root, "notebooks", "01-test.md")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, file
}

const runnable = "# Test\n\n```sh run id=count checked\necho 'instructions: 42'\n```\n\n" +
	"```sh run id=clock varies\ndate +%s%N\n```\n\n" +
	"```sh run id=shared checked\necho from-one > \"$NB_WORK/f\"; cat \"$NB_WORK/f\"; pwd\n```\n"

func TestRunFile_Run_WritesOutputs_ThenCheckPasses(t *testing.T) {
	root, file := writeNotebook(t, runnable)
	ctx := context.Background()
	rep, err := RunFile(ctx, file, Options{Root: root})
	if err != nil || !rep.Rewritten || len(rep.Cells) != 3 {
		t.Fatalf("run: %+v, %v", rep, err)
	}
	b, _ := os.ReadFile(file)
	if !strings.Contains(string(b), "<!-- output count -->\n```text\ninstructions: 42\n```\n") ||
		!strings.Contains(string(b), "from-one\n"+root+"\n") {
		t.Fatalf("outputs not written as expected:\n%s", b)
	}
	// The clock cell's output differs on every run; check compares only
	// the checked cells.
	if _, err := RunFile(ctx, file, Options{Root: root, Check: true}); err != nil {
		t.Fatalf("check right after run: %v", err)
	}
	if b2, _ := os.ReadFile(file); string(b2) != string(b) {
		t.Fatal("check changed the notebook")
	}
	if _, err := os.Stat(filepath.Join(root, "notebooks", ".work", "01-test")); !os.IsNotExist(err) {
		t.Errorf("scratch directory left behind: %v", err)
	}
}

func TestRunFile_Check_ChangedCheckedOutput_FailsWithDiff(t *testing.T) {
	root, file := writeNotebook(t, runnable)
	ctx := context.Background()
	if _, err := RunFile(ctx, file, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(file)
	// A count that changed: the stored output says 41, the cell prints 42.
	os.WriteFile(file, []byte(strings.Replace(string(b), "instructions: 42\n```", "instructions: 41\n```", 1)), 0o644)
	_, err := RunFile(ctx, file, Options{Root: root, Check: true})
	var ce *CheckError
	if !errors.As(err, &ce) || len(ce.Mismatches) != 1 || ce.Mismatches[0].Cell.ID != "count" {
		t.Fatalf("check = %v, want a CheckError for cell count", err)
	}
	msg := err.Error()
	for _, want := range []string{"01-test: 1 checked output(s) differ", "cell count (line 3)", "- instructions: 41", "+ instructions: 42", "pure-notebook run 01-test"} {
		if !strings.Contains(msg, want) {
			t.Errorf("check error lacks %q:\n%s", want, msg)
		}
	}
}

func TestRunFile_Check_ChangedVaryingOutput_Passes(t *testing.T) {
	root, file := writeNotebook(t, runnable)
	ctx := context.Background()
	if _, err := RunFile(ctx, file, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(file)
	s := string(b)
	i := strings.Index(s, "<!-- output clock -->\n```text\n") + len("<!-- output clock -->\n```text\n")
	s = s[:i] + "not a time at all" + s[strings.Index(s[i:], "\n")+i:]
	os.WriteFile(file, []byte(s), 0o644)
	if _, err := RunFile(ctx, file, Options{Root: root, Check: true}); err != nil {
		t.Fatalf("check failed on a varying output: %v", err)
	}
}

func TestRunFile_Check_NoStoredOutput_Fails(t *testing.T) {
	root, file := writeNotebook(t, runnable)
	_, err := RunFile(context.Background(), file, Options{Root: root, Check: true})
	if err == nil || !strings.Contains(err.Error(), "stores no output for this cell") {
		t.Fatalf("check of a never-run notebook = %v", err)
	}
}

func TestRunFile_FailingCell_ReportedWithID_FileUntouched(t *testing.T) {
	src := "```sh run id=first checked\necho fine\n```\n\n```sh run id=broken varies\nfor i in 1 2 3; do echo line $i; done\necho oops >&2\nexit 3\n```\n\n```sh run id=never checked\necho never\n```\n"
	root, file := writeNotebook(t, src)
	rep, err := RunFile(context.Background(), file, Options{Root: root})
	var ce *CellError
	if !errors.As(err, &ce) || ce.Cell.ID != "broken" {
		t.Fatalf("run = %v, want a CellError for cell broken", err)
	}
	msg := err.Error()
	for _, want := range []string{"01-test: cell broken (line 5) failed: exit status 3", "  | line 3\n  | oops"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if len(rep.Cells) != 1 {
		t.Errorf("%d cells ran before the failure, want 1 (and none after it)", len(rep.Cells))
	}
	if b, _ := os.ReadFile(file); string(b) != src {
		t.Errorf("a failed run rewrote the notebook:\n%s", b)
	}
}

func TestRunFile_Timeout_KillsTheCell(t *testing.T) {
	root, file := writeNotebook(t, "```sh run id=slow varies timeout=300ms\necho started\nsleep 30 & wait\n```\n")
	t0 := time.Now()
	_, err := RunFile(context.Background(), file, Options{Root: root})
	if err == nil || !strings.Contains(err.Error(), "cell slow (line 1) failed: ran past its timeout of 300ms") ||
		!strings.Contains(err.Error(), "| started") {
		t.Fatalf("run = %v", err)
	}
	if took := time.Since(t0); took > 10*time.Second {
		t.Errorf("the timed-out cell held the runner for %v", took)
	}
}

func TestRunFile_Plot(t *testing.T) {
	src := "```sh run id=pic varies plot=pic.png\nprintf 'PNG' > \"$NB_ASSETS/pic.png\"\n```\n"
	root, file := writeNotebook(t, src)
	if _, err := RunFile(context.Background(), file, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(file)
	if !strings.Contains(string(b), "<!-- output pic -->\n![pic](01-test/pic.png)\n<!-- end output pic -->\n") {
		t.Errorf("no image link:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(root, "notebooks", "01-test", "pic.png")); err != nil {
		t.Errorf("plot not beside the notebook: %v", err)
	}

	root, file = writeNotebook(t, "```sh run id=pic varies plot=pic.png\necho forgot\n```\n")
	_, err := RunFile(context.Background(), file, Options{Root: root})
	if err == nil || !strings.Contains(err.Error(), "declares plot=pic.png but wrote no $NB_ASSETS/pic.png") {
		t.Errorf("run of a cell that forgot its plot = %v", err)
	}
}
