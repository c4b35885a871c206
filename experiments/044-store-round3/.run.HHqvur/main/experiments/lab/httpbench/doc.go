// Package httpbench holds the pieces both HTTP harnesses share: `just http`
// (cmd/pure-http, servers side by side) and the pairs runner's HTTP
// workloads (package measure, `just pairs suite=http`).
//
//   - server.go: Server, a started server process: Start runs it and waits
//     for the "listening HOST:PORT" line it prints first; Stop ends it with
//     SIGTERM (SIGKILL after a grace period), Kill at once.
//   - proc.go: what a process uses, read from outside it: CPU time (from
//     /proc/PID/stat in clock ticks, and from the process's CPU clock in
//     nanoseconds), the peak resident set (VmHWM) and its reset, the
//     children, the load average and the host.
//   - load.go: RunLoad runs pure-load --json pinned to a CPU and returns its
//     load.Result; Prepare fills a server's store before it is measured
//     (the seed documents, or score inputs for the views).
//
// It knows nothing of experiments, suites or notes: callers record what it
// returns in their own formats.
package httpbench
