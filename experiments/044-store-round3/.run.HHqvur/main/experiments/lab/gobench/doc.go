// Package gobench makes another module's Go benchmarks a suite the pairs
// runner can judge: `just pairs repo=PATH before=REV after=REV` (or
// module=PATH with two versions) and `just bisect repo=PATH ... bench=Name`.
//
//   - build.go: Subject (a git repository or a module, a package pattern,
//     a benchmark pattern) and Builder, which checks each side out in a
//     worktree of that repository (or copies the module version from the
//     module cache, module.go), builds one `go test -c` binary per
//     package with tests, and caches binaries and source tree by commit
//     and pattern. The test binaries run in their package's directory of
//     that tree (SourceDir), as go test runs them.
//   - plan.go: Plan.Suite lists each side's benchmarks (-test.list),
//     probes those on both sides (a short -test.benchtime run, which also
//     reveals sub-benchmarks: each Name/case is a workload of its own),
//     chooses one N for both sides from the slower side's ns/op, and
//     returns the suite: per benchmark a native measurement
//     (-test.benchtime=Nx) and a callgrind one (N1x and N2x). Benchmarks
//     on one side only, and those whose probe fails, are recorded
//     (expdir.GoBenchMeta), not judged.
//   - parse.go: Parse reads a test binary's output with
//     golang.org/x/perf/benchfmt: ns/op, B/op, allocs/op.
//
// The measurements themselves run in package measure (gobench.go there),
// under the same controls as every other workload; the judge, the note
// and the exports are the built-in suite's.
package gobench
