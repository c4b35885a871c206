package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Marker functions of the guest: the count covers the translation blocks
// the main thread executes after entering regionBegin and before entering
// regionEnd.
const (
	beginSymbol = "main.regionBegin"
	endSymbol   = "main.regionEnd"
)

// tally is what a qemu log says about one run.
type tally struct {
	region   uint64 // instructions executed by the main thread inside the region
	process  uint64 // instructions executed by the main thread in the whole run
	blocks   uint64 // translation blocks executed inside the region
	unknown  uint64 // executed blocks whose translation the log did not show
	threads  int    // guest threads (qemu vCPUs) seen executing
	sawBegin bool
	sawEnd   bool
	bySym    map[string]uint64 // region instructions per symbol, when asked for
}

// readTrace reads a qemu log written with -d in_asm,exec,nochain. Every
// translation is logged once ("IN: symbol" and one "0x…:" line per guest
// instruction); with nochain every execution of a block is logged as
// "Trace CPU: HOST [CS_BASE/PC/FLAGS/CFLAGS] symbol". A block's execution
// counts all of its instructions: the same method qemu's own "insn" plugin
// uses with inline counting per block.
func readTrace(r io.Reader) (tally, error) {
	var t tally
	if os.Getenv("QCOUNT_SYMBOLS") != "" {
		t.bySym = map[string]uint64{}
	}
	size := map[uint64]uint64{} // block start pc → instructions, latest translation
	cpus := map[int]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var blockPC uint64
	inBlock, inRegion := false, false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "IN:"):
			inBlock, blockPC = true, 0
		case inBlock && strings.HasPrefix(line, "0x"):
			colon := strings.IndexByte(line, ':')
			if colon < 0 {
				continue
			}
			pc, err := strconv.ParseUint(line[2:colon], 16, 64)
			if err != nil {
				return t, fmt.Errorf("qemu log: instruction line %q: %v", line, err)
			}
			if blockPC == 0 {
				blockPC = pc
				size[pc] = 0
			}
			size[blockPC]++
		case strings.HasPrefix(line, "Trace "):
			inBlock = false
			cpu, pc, sym, err := traceLine(line)
			if err != nil {
				return t, err
			}
			cpus[cpu] = true
			if cpu != 0 {
				continue
			}
			n, ok := size[pc]
			if !ok {
				t.unknown++
			}
			t.process += n
			switch {
			case sym == beginSymbol && !t.sawBegin:
				t.sawBegin, inRegion = true, true
				continue
			case sym == endSymbol && inRegion:
				t.sawEnd, inRegion = true, false
			}
			if inRegion {
				t.region += n
				t.blocks++
				if t.bySym != nil {
					t.bySym[sym] += n
				}
			}
		default:
			inBlock = inBlock && line != "" && !strings.HasPrefix(line, "---")
		}
	}
	t.threads = len(cpus)
	return t, sc.Err()
}

// traceLine parses "Trace 0: 0x7f… [0000000001009331/000000000008a8c0/00000001/00000200] sym".
func traceLine(line string) (cpu int, pc uint64, sym string, err error) {
	rest := strings.TrimPrefix(line, "Trace ")
	c, rest, ok := strings.Cut(rest, ":")
	open, close := strings.IndexByte(rest, '['), strings.IndexByte(rest, ']')
	if !ok || open < 0 || close < open {
		return 0, 0, "", fmt.Errorf("qemu log: unexpected trace line %q", line)
	}
	if cpu, err = strconv.Atoi(c); err != nil {
		return 0, 0, "", fmt.Errorf("qemu log: cpu in %q: %v", line, err)
	}
	fields := strings.Split(rest[open+1:close], "/")
	if len(fields) < 2 {
		return 0, 0, "", fmt.Errorf("qemu log: no pc in %q", line)
	}
	if pc, err = strconv.ParseUint(fields[1], 16, 64); err != nil {
		return 0, 0, "", fmt.Errorf("qemu log: pc in %q: %v", line, err)
	}
	return cpu, pc, strings.TrimSpace(rest[close+1:]), nil
}
