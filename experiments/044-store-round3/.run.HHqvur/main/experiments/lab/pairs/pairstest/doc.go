// Package pairstest makes scratch git repositories holding a fake subject,
// so the pairs runner and its command can be tested end to end without the
// real pure-count.
//
// The fake cmd/pure-count speaks the --json contract of pure-count run (see
// docs/pure-count-json.md) with made-up but exact numbers:
//
//   - each measurement counts PerOp events per operation on every event
//     asked for (default "instructions"), with PerOp BeforePerOp at the
//     before commit and AfterPerOp at the after commit;
//   - wall_ns is 1000 per operation and cpu_ns 900 per operation;
//   - the workload named "crash" writes "panic: boom" to stderr and exits 3;
//   - the workload named "sleep" sleeps for a minute, for timeouts and
//     interrupts;
//   - when FAKE_LOG is set in its environment, it appends one line
//     "argv0 cwd env-bytes" to that file per invocation, so tests can check
//     that both sides ran under the same path, directory and environment
//     size.
//
// It imports only os, strconv, strings and time, to build quickly.
package pairstest
