package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// The gate lets a caller alternate the regions of two measuring processes
// one by one, A B B A A B ..., so that both sides of a comparison meet the
// same moments of a shared machine's interference (it comes and goes within
// tenths of a second). Only one of the two runs at any time: the other waits
// in a read. The protocol, on two pipes the caller passes to `pure-count run
// --gate` as fd 3 (go: the caller writes) and fd 4 (done: the caller reads):
//
//   - the measuring process prepares its first region, then writes one byte
//     on done: it is ready;
//   - for each region it reads one byte from go, prepares the region (from
//     the second on: afresh, or nothing but a collection with --rerun),
//     counts it, prints its JSON line, and writes one byte on done;
//   - a caller that closes go ends the process: the next read finds the end
//     of the pipe and the process exits with an error, printing nothing
//     more.
//
// pure-count run passes the two pipes on to its measuring child as fd 5
// and 6 (fd 3 and 4 are the child's quiet start).

// gatePipes checks that fd 3 and 4 are the caller's pipes and returns them,
// to pass on to the measuring child.
func gatePipes() ([]*os.File, error) {
	var files []*os.File
	for _, fd := range []int{3, 4} {
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
			return nil, usageError(fmt.Sprintf("--gate: fd %d is not a pipe; the caller must pass its go pipe as fd 3 and its done pipe as fd 4 (see docs/pure-count-json.md)", fd))
		}
		files = append(files, os.NewFile(uintptr(fd), fmt.Sprintf("gate fd %d", fd)))
	}
	return files, nil
}

// gateChild is the measuring child's end of the gate: fd 5 (go) and fd 6
// (done).
type gateChild struct {
	goFile, doneFile *os.File
}

func openGateChild() (*gateChild, error) {
	g := &gateChild{goFile: os.NewFile(5, "gate go"), doneFile: os.NewFile(6, "gate done")}
	if g.goFile == nil || g.doneFile == nil {
		return nil, fmt.Errorf("--gate: the gate's pipes (fd 5 and 6) are missing")
	}
	return g, nil
}

// wait blocks until the caller lets region i start.
func (g *gateChild) wait(i int) error {
	var b [1]byte
	if _, err := io.ReadFull(g.goFile, b[:]); err != nil {
		return fmt.Errorf("--gate: waiting for the go-ahead for region %d: the caller closed the gate (%v)", i, err)
	}
	return nil
}

// done tells the caller this process is ready for its next region (or has
// finished its last).
func (g *gateChild) done() error {
	if _, err := g.doneFile.Write([]byte{1}); err != nil {
		return fmt.Errorf("--gate: telling the caller a region is done: %w", err)
	}
	return nil
}

func (g *gateChild) close() {
	g.goFile.Close()
	g.doneFile.Close()
}
