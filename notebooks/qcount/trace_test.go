package main

import (
	"strings"
	"testing"
)

// A log shaped like qemu 7.2's -d in_asm,exec,nochain output: two blocks
// translated, executed on vCPU 0 before, inside and after the region, and
// one block executed by another thread (vCPU 1), which is not counted.
const traceLog = `----------------
IN: main.regionBegin
0x00010000:  d65f03c0  ret

Trace 0: 0x7f0000000100 [0000000001009331/0000000000010000/00000001/00000200] main.regionBegin
----------------
IN: work
0x00020000:  91000400  add      x0, x0, #1
0x00020004:  f100281f  cmp      x0, #0xa
0x00020008:  54ffffcb  b.lt     #0x20000

Trace 0: 0x7f0000000200 [0000000001009331/0000000000020000/00000001/00000200] work
Trace 1: 0x7f0000000200 [0000000001009331/0000000000020000/00000001/00000200] work
Trace 0: 0x7f0000000200 [0000000001009331/0000000000020000/00000001/00000200] work
----------------
IN: main.regionEnd
0x00030000:  d65f03c0  ret

Trace 0: 0x7f0000000300 [0000000001009331/0000000000030000/00000001/00000200] main.regionEnd
Trace 0: 0x7f0000000200 [0000000001009331/0000000000020000/00000001/00000200] work
`

func TestReadTrace_CountsMainThreadBlocksInsideRegion(t *testing.T) {
	got, err := readTrace(strings.NewReader(traceLog))
	if err != nil {
		t.Fatal(err)
	}
	if got.region != 6 || got.blocks != 2 || got.process != 1+3+3+1+3 || got.threads != 2 || !got.sawBegin || !got.sawEnd || got.unknown != 0 {
		t.Fatalf("tally = %+v, want region 6 in 2 blocks, process 11, 2 threads", got)
	}
}

func TestReadTrace_UntranslatedBlock_Counted_AsUnknown(t *testing.T) {
	got, err := readTrace(strings.NewReader("Trace 0: 0x1 [0/0000000000040000/0/0] x\n"))
	if err != nil || got.unknown != 1 {
		t.Fatalf("tally = %+v, %v: want one unknown block", got, err)
	}
	if _, err := readTrace(strings.NewReader("Trace x: junk\n")); err == nil {
		t.Fatal("a malformed trace line was accepted")
	}
}
