package perfcount

// Valgrind client request codes (valgrind.h, callgrind.h).
const (
	vgRunningOnValgrind = 0x1001
	cgBase              = uintptr('C')<<24 | uintptr('T')<<16
	cgDumpStats         = cgBase + 0
	cgZeroStats         = cgBase + 1
	cgToggleCollect     = cgBase + 2
	cgDumpStatsAt       = cgBase + 3
)

// RunningOnValgrind reports whether the process runs under valgrind (any
// tool). It is a client request: natively it costs a handful of instructions.
func RunningOnValgrind() bool {
	var args [6]uintptr
	args[0] = vgRunningOnValgrind
	return clientRequest(&args, 0) != 0
}

func callgrindRequest(req uintptr) {
	var args [6]uintptr
	args[0] = req
	clientRequest(&args, 0)
}
