//go:build linux

package perfcount

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// group is a set of perf_event file descriptors opened as one group: the
// first is the leader, the kernel schedules them onto the PMU together, and
// one read of the leader returns every value with the group's enabled and
// running times (PERF_FORMAT_GROUP).
type group struct {
	fds    []int
	ids    []uint64
	events []Event
	buf    []byte
	counts []Count
}

// Bits of perf_event_attr.read_format.
const (
	formatTotalTimeEnabled = 1 << 0
	formatTotalTimeRunning = 1 << 1
	formatID               = 1 << 2
	formatGroup            = 1 << 3
)

// ioctl requests on a perf_event fd (linux/perf_event.h).
const (
	iocEnable  = 0x2400
	iocDisable = 0x2401
	iocReset   = 0x2403
	iocID      = 0x80082407
	iocFlagGrp = 1
)

type openMode int

const (
	// modeThread counts the calling thread only, starting disabled.
	modeThread openMode = iota
	// modeExec counts a process from its next execve on, with every thread
	// and child it starts afterwards (inherit + enable_on_exec).
	modeExec
)

// openGroup opens events as one group on pid (0: the calling thread).
func openGroup(events []Event, pid int, mode openMode) (*group, error) {
	if len(events) == 0 {
		return nil, fmt.Errorf("no events to count")
	}
	g := &group{
		events: events,
		buf:    make([]byte, 8*(3+2*len(events))),
		counts: make([]Count, len(events)),
	}
	for i, ev := range events {
		attr := eventAttr(ev, i == 0, mode)
		leader := -1
		if i > 0 {
			leader = g.fds[0]
		}
		fd, err := unix.PerfEventOpen(&attr, pid, -1, leader, unix.PERF_FLAG_FD_CLOEXEC)
		if err != nil {
			g.close()
			return nil, openError(ev, err)
		}
		g.fds = append(g.fds, fd)
		var id uint64
		if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), iocID, uintptr(unsafe.Pointer(&id))); e != 0 {
			g.close()
			return nil, fmt.Errorf("perf_event %s: reading its id: %w", ev.Name, e)
		}
		g.ids = append(g.ids, id)
		g.counts[i] = Count{Event: ev.Name, Source: SourcePerf}
	}
	return g, nil
}

// eventAttr is the perf_event_attr that opens ev as the group's leader or
// as a member, in mode: the PMU's type and config words as resolved (for an
// armv8 PMU named in sysfs: its dynamic type and the event number in
// config), every value read with the group's times, the hypervisor
// excluded, and :u or :k as exclusions.
func eventAttr(ev Event, leader bool, mode openMode) unix.PerfEventAttr {
	attr := unix.PerfEventAttr{
		Type:        ev.Type,
		Config:      ev.Config,
		Ext1:        ev.Config1,
		Ext2:        ev.Config2,
		Read_format: formatTotalTimeEnabled | formatTotalTimeRunning | formatID | formatGroup,
	}
	attr.Size = uint32(unsafe.Sizeof(attr))
	attr.Bits |= unix.PerfBitExcludeHv
	if ev.ExcludeUser {
		attr.Bits |= unix.PerfBitExcludeUser
	}
	if ev.ExcludeKernel {
		attr.Bits |= unix.PerfBitExcludeKernel
	}
	if leader {
		// Members follow the leader: only it starts disabled.
		attr.Bits |= unix.PerfBitDisabled
		if mode == modeExec {
			attr.Bits |= unix.PerfBitEnableOnExec
		}
	}
	if mode == modeExec {
		attr.Bits |= unix.PerfBitInherit
	}
	return attr
}

// openError turns a perf_event_open errno into an error that says what to do.
func openError(ev Event, err error) error {
	var errno unix.Errno
	if !errors.As(err, &errno) {
		return fmt.Errorf("perf_event_open %s: %w", ev.Name, err)
	}
	switch errno {
	case unix.ENOENT, unix.EOPNOTSUPP, unix.ENODEV:
		if ev.NeedsPMU() {
			return fmt.Errorf("%w (virtualised?): %s cannot be counted here (perf_event_open: %v); use --backend callgrind",
				ErrNoPMU, ev.Name, errno)
		}
		return fmt.Errorf("%w: the kernel does not know event %s (perf_event_open: %v)", ErrUnsupported, ev.Name, errno)
	case unix.EACCES, unix.EPERM:
		p := ThisMachine().Paranoid
		hint := "run as root, grant CAP_PERFMON, or lower it: sudo sysctl kernel.perf_event_paranoid=1"
		if p >= 2 && !ev.ExcludeKernel {
			hint = "count user space only by adding :u (e.g. " + ev.Name + ":u), or " + hint
		}
		return fmt.Errorf("%w: %s (perf_event_open: %v): /proc/sys/kernel/perf_event_paranoid is %d; %s",
			ErrPermission, ev.Name, errno, p, hint)
	case unix.ENOSYS:
		return fmt.Errorf("%w: this kernel has no perf_event_open (or a seccomp filter blocks it)", ErrUnsupported)
	case unix.EMFILE, unix.ENFILE:
		return fmt.Errorf("perf_event_open %s: out of file descriptors (%v): close unused counters or raise ulimit -n", ev.Name, errno)
	case unix.EINVAL:
		return fmt.Errorf("perf_event_open %s: the kernel refused its configuration (type %d config %#x) (%v): check the event's spelling for this CPU",
			ev.Name, ev.Type, ev.Config, errno)
	}
	return fmt.Errorf("perf_event_open %s: %w", ev.Name, errno)
}

// ioctl applies req to the whole group through its leader. It uses a raw
// system call (no scheduler bookkeeping): these calls never block, and fewer
// instructions around the region keep its overhead small.
func (g *group) ioctl(req uintptr) error {
	if _, _, e := unix.RawSyscall(unix.SYS_IOCTL, uintptr(g.fds[0]), req, iocFlagGrp); e != 0 {
		return e
	}
	return nil
}

// read reads every value of the group into g.counts without allocating.
func (g *group) read() error {
	n, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(g.fds[0]), uintptr(unsafe.Pointer(&g.buf[0])), uintptr(len(g.buf)))
	if e != 0 {
		return e
	}
	if int(n) != len(g.buf) {
		return errShortRead
	}
	ne := binary.NativeEndian
	nr := ne.Uint64(g.buf[0:])
	enabled := time.Duration(ne.Uint64(g.buf[8:]))
	running := time.Duration(ne.Uint64(g.buf[16:]))
	if int(nr) != len(g.fds) {
		return errShortRead
	}
	for i := 0; i < int(nr); i++ {
		off := 24 + 16*i
		v, id := ne.Uint64(g.buf[off:]), ne.Uint64(g.buf[off+8:])
		for j := range g.ids {
			if g.ids[j] == id {
				c := &g.counts[j]
				c.Value, c.Enabled, c.Running = v, enabled, running
				c.Multiplexed = running < enabled
			}
		}
	}
	return nil
}

var errShortRead = errors.New("perf_event read returned fewer values than the group has")

func (g *group) close() error {
	var first error
	for _, fd := range g.fds {
		if err := unix.Close(fd); err != nil && first == nil {
			first = err
		}
	}
	g.fds = nil
	return first
}
