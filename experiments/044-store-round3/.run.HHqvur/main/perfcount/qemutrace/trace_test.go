package qemutrace

import (
	"strings"
	"testing"
)

// A log shaped like qemu 7.2's -d in_asm,exec,nochain output: two blocks
// translated, executed on vCPU 0 before, inside and after the region, and
// one block executed by another thread (vCPU 1), which is not counted.
const traceLog = `----------------
IN: workbench/perfcount/qemutrace.regionBegin
0x00010000:  d65f03c0  ret

Trace 0: 0x7f0000000100 [0000000001009331/0000000000010000/00000001/00000200] workbench/perfcount/qemutrace.regionBegin
----------------
IN: work
0x00020000:  91000400  add      x0, x0, #1
0x00020004:  f100281f  cmp      x0, #0xa
0x00020008:  54ffffcb  b.lt     #0x20000

Trace 0: 0x7f0000000200 [0000000001009331/0000000000020000/00000001/00000200] work
Trace 1: 0x7f0000000200 [0000000001009331/0000000000020000/00000001/00000200] work
Trace 0: 0x7f0000000200 [0000000001009331/0000000000020000/00000001/00000200] work
----------------
IN: workbench/perfcount/qemutrace.regionEnd
0x00030000:  d65f03c0  ret

Trace 0: 0x7f0000000300 [0000000001009331/0000000000030000/00000001/00000200] workbench/perfcount/qemutrace.regionEnd
Trace 0: 0x7f0000000200 [0000000001009331/0000000000020000/00000001/00000200] work
`

func TestRead_CountsMainThreadBlocksInsideRegion(t *testing.T) {
	got, err := Read(strings.NewReader(traceLog), Options{BySymbol: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.Region != 6 || got.Blocks != 2 || got.Process != 1+3+3+1+3 || got.Threads != 2 || !got.SawBegin || !got.SawEnd || got.Unknown != 0 {
		t.Fatalf("tally = %+v, want region 6 in 2 blocks, process 11, 2 threads", got)
	}
	if got.BySymbol["work"] != 6 || len(got.BySymbol) != 1 {
		t.Fatalf("by symbol = %v, want work: 6", got.BySymbol)
	}
	if err := got.Err(); err != nil {
		t.Fatalf("Err() = %v for a complete log", err)
	}
}

func TestRead_Retranslation_CountsLatestSize(t *testing.T) {
	// The block at 0x20000 is translated again with two instructions
	// (qemu flushed its cache): later executions count two.
	log := traceLog + `----------------
IN: work
0x00020000:  91000400  add      x0, x0, #1
0x00020004:  f100281f  cmp      x0, #0xa

Trace 0: 0x7f0000000200 [0000000001009331/0000000000020000/00000001/00000200] work
`
	got, err := Read(strings.NewReader(log), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Process != 11+2 || got.Region != 6 {
		t.Fatalf("tally = %+v, want process 13, region 6", got)
	}
}

func TestRead_OtherMarkers(t *testing.T) {
	log := strings.ReplaceAll(traceLog, "workbench/perfcount/qemutrace.region", "main.region")
	got, err := Read(strings.NewReader(log), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Err() == nil || got.Region != 0 {
		t.Fatalf("default markers found in a log with main.region*: %+v", got)
	}
	got, err = Read(strings.NewReader(log), Options{Begin: "main.regionBegin", End: "main.regionEnd"})
	if err != nil || got.Region != 6 || got.Err() != nil {
		t.Fatalf("tally = %+v, %v; want region 6 with the named markers", got, err)
	}
}

func TestRead_UntranslatedBlock_CountedAsUnknown(t *testing.T) {
	got, err := Read(strings.NewReader("Trace 0: 0x1 [0/0000000000040000/0/0] x\n"), Options{})
	if err != nil || got.Unknown != 1 {
		t.Fatalf("tally = %+v, %v: want one unknown block", got, err)
	}
	if err := got.Err(); err == nil {
		t.Fatal("Err() = nil for a log without markers")
	}
	got.SawBegin, got.SawEnd = true, true
	if err := got.Err(); err == nil || !strings.Contains(err.Error(), "no logged translation") {
		t.Fatalf("Err() = %v, want the unknown blocks named", err)
	}
}

func TestRead_MalformedTraceLine_NamesLine(t *testing.T) {
	_, err := Read(strings.NewReader("IN: x\n\nTrace x: junk\n"), Options{})
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("err = %v, want an error naming line 3", err)
	}
}

func TestEmulator_UnknownArch(t *testing.T) {
	_, err := Emulator("riscv64")
	if err == nil || !strings.Contains(err.Error(), "arm64") || !strings.Contains(err.Error(), "riscv64") {
		t.Fatalf("err = %v, want the bad arch and the known ones", err)
	}
}

func TestLogArgs(t *testing.T) {
	if got := strings.Join(LogArgs(5), " "); got != "-d in_asm,exec,nochain -D /dev/fd/5" {
		t.Fatalf("LogArgs(5) = %q", got)
	}
}
