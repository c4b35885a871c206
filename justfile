# Recipes of the instruction-counting workbench; `just --list` shows them.
# Arguments are written key=value, e.g. `just count r=5 w=sort-ints-10k`.
# Every recipe is one command that also runs without just.

set shell := ["bash", "-euo", "pipefail", "-c"]
set positional-arguments := true

# Builds both revisions, runs the suite in alternating before/after pairs (ABBA),
# records every run, judges it and writes the note.
# Judge a change. Keys: before=REV after=REV [pairs=6] [suite=default] [exp=NNN-slug] [resume=1]
pairs +args:
    go run ./cmd/pure-pairs run "$@"

# Builds and counts the commits on the first-parent path from good to bad, halving
# the range like git bisect.
# Find the commit that made a workload's instruction count rise. Keys: good=REV bad=REV workload=W [threshold=1%] [repeat=3] [suite=default]
bisect +args:
    go run ./cmd/pure-pairs bisect "$@"

# Acceptance test on a planted regression: in a scratch copy of the repository, pairs must
# call a 3 % rise in sort-ints-10k worse, the profile diff name its function, bisect its commit.
# Run the planted-regression test N times and count the passes. Keys: runs=N (default 5)
check-regression *args:
    n=5; for a in "$@"; do case $a in runs=*) n=${a#runs=} ;; *) echo "check-regression: argument '$a': use runs=N" >&2; exit 2 ;; esac; done; \
    go test -count="$n" -v -run '^TestInjectedRegression$' ./experiments/lab/pairs/ 2>&1 | \
    awk '{ print } /^--- PASS/ { p++ } /^--- (FAIL|SKIP)/ { f++ } END { printf "check-regression: %d of %d runs passed\n", p, p + f; exit (f > 0 || p == 0) }'

# Regenerate an experiment's note, plot and bench.txt from its files alone, byte for byte. Keys: exp=NNN-slug
note +args:
    go run ./cmd/pure-note "$@"

# Regenerate experiments/README.md, the index of the experiments, byte for byte.
index *args:
    go run ./cmd/pure-index "$@"

# A child commits from six goroutines and is killed with SIGKILL at a random moment;
# the output ends "N cycles, A acknowledged, L lost".
# Crash-test the tree store. Keys: cycles=N (default 20)
crash-store *args:
    ./scripts/crash-store "$@"

# Run the tests (the README's test command).
test:
    go test ./...

# Count registered workloads. Keys: backend=callgrind|perf r=REPEATS n=OPS w="W1 W2" (default all)
count *args:
    ./scripts/kv pure-count-run "$@"

# Count a whole command like perf stat. Keys: e=EVENTS r=REPEATS backend=perf|callgrind cmd="CMD ARGS" (e defaults to what the backend counts)
stat *args:
    ./scripts/kv pure-count-stat "$@"

# Go benchmarks with instructions/op (under callgrind where there is no PMU). Keys: pkg=./perfcount/... bench=REGEXP n=ITERATIONS
bench *args:
    ./scripts/bench-count "$@"
