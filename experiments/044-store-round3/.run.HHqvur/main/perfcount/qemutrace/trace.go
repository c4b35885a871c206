package qemutrace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Tally is what one qemu log says about one run of a guest.
type Tally struct {
	// Region is the instructions vCPU 0 executed inside the region.
	Region uint64
	// Process is the instructions vCPU 0 executed in the whole log.
	Process uint64
	// Blocks is the translation blocks executed inside the region.
	Blocks uint64
	// Unknown is the executed blocks whose translation the log did not
	// show; if it is not zero the counts are short.
	Unknown uint64
	// Threads is the guest threads (qemu vCPUs) seen executing.
	Threads int
	// SawBegin and SawEnd say whether the markers were executed.
	SawBegin, SawEnd bool
	// BySymbol is the region's instructions per symbol, when Options
	// asked for it.
	BySymbol map[string]uint64
}

// Err says why the region count cannot be trusted, or nil.
func (t Tally) Err() error {
	switch {
	case !t.SawBegin || !t.SawEnd:
		return errors.New("the qemu log shows no region markers: was the guest stripped (-ldflags=-s), or did it not run the region?")
	case t.Unknown > 0:
		return fmt.Errorf("%d executed blocks had no logged translation: the count would be short", t.Unknown)
	}
	return nil
}

// Options choose the markers and what Read records besides the counts.
type Options struct {
	// Begin and End are the marker symbols; empty means BeginSymbol and
	// EndSymbol (the guest uses Region).
	Begin, End string
	// BySymbol records the region's instructions per symbol.
	BySymbol bool
}

// Read reads a qemu log written with -d in_asm,exec,nochain (LogArgs) to
// its end. Every translation is logged once ("IN: symbol" and one "0x…:"
// line per guest instruction); every execution of a block as
// "Trace CPU: HOST [CS_BASE/PC/FLAGS/CFLAGS] symbol". A block's execution
// counts all the instructions of its latest translation, the method qemu's
// own "insn" plugin uses with inline counting per block. Only vCPU 0's
// blocks count. A malformed line stops the read with an error naming it.
func Read(r io.Reader, opt Options) (Tally, error) {
	begin, end := opt.Begin, opt.End
	if begin == "" {
		begin = BeginSymbol
	}
	if end == "" {
		end = EndSymbol
	}
	var t Tally
	if opt.BySymbol {
		t.BySymbol = map[string]uint64{}
	}
	size := map[uint64]uint64{} // block start pc → instructions, latest translation
	cpus := map[int]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var blockPC uint64
	inBlock, inRegion, first := false, false, false
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "IN:"):
			inBlock, first = true, true
		case inBlock && strings.HasPrefix(line, "0x"):
			colon := strings.IndexByte(line, ':')
			if colon < 0 {
				continue
			}
			pc, err := strconv.ParseUint(line[2:colon], 16, 64)
			if err != nil {
				return t, fmt.Errorf("qemu log line %d: instruction line %q: %v", lineNo, line, err)
			}
			if first {
				blockPC, first = pc, false
				size[pc] = 0
			}
			size[blockPC]++
		case strings.HasPrefix(line, "Trace "):
			inBlock = false
			cpu, pc, sym, err := traceLine(line)
			if err != nil {
				return t, fmt.Errorf("qemu log line %d: %w", lineNo, err)
			}
			cpus[cpu] = true
			if cpu != 0 {
				continue
			}
			n, ok := size[pc]
			if !ok {
				t.Unknown++
			}
			t.Process += n
			switch {
			case sym == begin && !t.SawBegin:
				t.SawBegin, inRegion = true, true
				continue
			case sym == end && inRegion:
				t.SawEnd, inRegion = true, false
			}
			if inRegion {
				t.Region += n
				t.Blocks++
				if t.BySymbol != nil {
					t.BySymbol[sym] += n
				}
			}
		default:
			inBlock = inBlock && line != "" && !strings.HasPrefix(line, "---")
		}
	}
	t.Threads = len(cpus)
	return t, sc.Err()
}

// traceLine parses "Trace 0: 0x7f… [0000000001009331/000000000008a8c0/00000001/00000200] sym".
func traceLine(line string) (cpu int, pc uint64, sym string, err error) {
	rest := strings.TrimPrefix(line, "Trace ")
	c, rest, ok := strings.Cut(rest, ":")
	open, close := strings.IndexByte(rest, '['), strings.IndexByte(rest, ']')
	if !ok || open < 0 || close < open {
		return 0, 0, "", fmt.Errorf("unexpected trace line %q", line)
	}
	if cpu, err = strconv.Atoi(c); err != nil {
		return 0, 0, "", fmt.Errorf("cpu in %q: %v", line, err)
	}
	fields := strings.Split(rest[open+1:close], "/")
	if len(fields) < 2 {
		return 0, 0, "", fmt.Errorf("no pc in %q", line)
	}
	if pc, err = strconv.ParseUint(fields[1], 16, 64); err != nil {
		return 0, 0, "", fmt.Errorf("pc in %q: %v", line, err)
	}
	return cpu, pc, strings.TrimSpace(rest[close+1:]), nil
}
