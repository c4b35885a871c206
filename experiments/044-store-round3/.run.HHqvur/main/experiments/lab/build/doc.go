// Package build builds the subject binaries of a revision, for pairs and
// bisect alike, and holds the options both commands share.
//
//   - options.go: Options, the settings pairs and bisect share (checkout,
//     experiments directory, cache, suite, controls), with Flags, the one
//     flag set both commands define, so their help cannot drift, and Fill.
//   - build.go: Builder resolves each revision to a commit, checks it out
//     in a temporary git worktree under the cache directory, builds the
//     subject binaries with `go build -trimpath`, and caches them by
//     commit hash. The user's checkout is never touched; the harness
//     itself always comes from the current checkout.
//   - git.go: git helpers, the lock file that serialises builds of one
//     commit, and Tail, the end of a command's output for errors.
//   - errors.go: BuildError, a failed build with its output.
package build
