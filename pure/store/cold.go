package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// Reading a file through a shared mapping makes each page read resident in
// the process (RSS), and a copy-on-write file is read almost page by page
// as it is written: the next commit walks the path the last one wrote. So
// between compactions a process that overwrites a few keys came to hold
// every page it ever wrote, most of them dead (a 64-writer PUT load of 64
// small documents reached 64 MiB of mapped file pages before the file was
// compacted). The writer therefore gives back the pages it wrote, a
// window behind the end: every 2 x coldWindow bytes of growth it drops
// the page-table entries of the range written since the last release, up to
// coldWindow before the end (madvise MADV_DONTNEED on the shared file
// mapping). The file's data is untouched: the pages stay in the page cache
// and a reader that needs one again (a live page among the dead) faults
// it back in, the same bytes.
//
// Such a page would stay resident if each range were released only once:
// under steady overwrites the next commit or fold reads the live version a
// round after it was written, by when it has been released, and a
// 64-writer PUT load of growing documents came to hold most of what it
// wrote again (74 MB against net/http's 14, experiment 107). So after
// sweepGap bytes of growth the release starts from the mapping's start
// instead (a sweep; experiment 109). RSS from the mapping stays near the
// live pages read plus twice coldWindow plus sweepGap.
//
// A sweep's madvise walks the page tables of the whole range, so its cost
// grows with the file: sweepGap grows with it too (a 64th of the end, at
// least sweepMin), which bounds the walking per byte written whatever the
// size, while a small file (a server's fresh store) is swept every MiB.
// With a window of 1 MiB and sweeps every 4 MiB the mapping held 1.5-2.3 MB
// at the peak of 18,000 durable PUTs (probe 958); 256 KiB and 1 MiB took a
// megabyte of that off.

// coldWindow is how far behind the end the writer releases pages; twice
// it is how much growth passes between releases.
const coldWindow = 256 << 10

// sweepMin and sweepShare set sweepGap.
const (
	sweepMin   = 1 << 20
	sweepShare = 64
)

// sweepGap is how much growth passes between the writer's releases of
// the whole mapping below the window (a sweep) when the file ends at end;
// between them it releases only what was written since the last release.
func sweepGap(end uint64) uint64 { return max(sweepMin, end/sweepShare) }

// pageReleaser is a File whose views can give their resident pages back
// without changing what they read. osFile is one; RAM mode's memory is the
// data itself and is not. A File wrapped by Options.WrapFile is not one
// unless the wrapper says so, so a wrapped file keeps its pages.
type pageReleaser interface {
	// releasePages drops b's resident pages; reads of b still return the
	// file's bytes. b starts on a page boundary.
	releasePages(b []byte) error
}

func (o *osFile) releasePages(b []byte) error { return unix.Madvise(b, unix.MADV_DONTNEED) }

// releaseColdLocked gives back the pages written since the last release,
// up to coldWindow before the end, once the end has moved 2 x coldWindow
// past the last release; once the end has moved sweepGap past the last
// sweep, it releases from the mapping's start instead. The writer calls it
// after each group, holding wmu; its mapping covers the end.
func (s *Store) releaseColdLocked() {
	if s.end < s.cold+2*coldWindow {
		return
	}
	r, ok := s.f.(pageReleaser)
	if !ok {
		s.cold = ^uint64(0) >> 1 // RAM mode or a wrapped file: never again (until a compaction's new file)
		return
	}
	page := uint64(os.Getpagesize()) // madvise wants a page-aligned start (4 KiB on x86, 4 or 64 KiB on arm64)
	from := s.cold &^ (page - 1)
	if s.end >= s.swept+sweepGap(s.end) {
		from, s.swept = 0, s.end
	}
	to := (s.end - coldWindow) &^ (page - 1)
	if to > uint64(len(s.m.data)) || from >= to {
		return
	}
	// A failed madvise changes nothing a reader sees: the pages stay.
	_ = r.releasePages(s.m.data[from:to])
	s.cold = to
	s.coldReleased.Add(to - from)
}
