# Recipes of the instruction-counting workbench; `just --list` shows them.
# Arguments are written key=value, e.g. `just count r=5 w=sort-ints-10k`.
# Every recipe is one command that also runs without just.

set shell := ["bash", "-euo", "pipefail", "-c"]
set positional-arguments := true

# Builds both revisions, runs the suite in alternating before/after pairs (ABBA),
# records every run, judges it and writes the note.
# With repo=PATH or module=PATH it judges that Go module's own benchmarks instead
# (pkg=./... bench=REGEXP; see docs/guide-gomod.md).
# Judge a change. Keys: before=REV after=REV [pairs=6] [suite=apps] [exp=NNN-slug] [resume=1] [repo=PATH|module=PATH] [pkg=./...] [bench=REGEXP]
pairs +args:
    go run ./cmd/pure-pairs run "$@"

# Builds and counts the commits on the first-parent path from good to bad, halving
# the range like git bisect.
# With repo=PATH, bench=Name names a Go benchmark of that repository instead.
# Find the commit that made a workload's instruction count rise. Keys: good=REV bad=REV workload=W [threshold=1%] [repeat=3] [suite=apps] [repo=PATH bench=Name]
bisect +args:
    go run ./cmd/pure-pairs bisect "$@"

# Criteria are fixed before a change is measured; someone else's module carries none of ours.
# Write the default criteria into a new experiment directory to edit before its run. Keys: exp=NNN-slug
criteria +args:
    go run ./cmd/pure-pairs criteria "$@"

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

# Children open, commit and compact and are killed with SIGKILL at random moments (the
# fourth test: all three in turn on one file); each test prints "N cycles, A acknowledged, L lost".
# Crash-test the tree store. Keys: cycles=N (default 20) tests=open,commits,compaction,onefile
crash-store *args:
    ./scripts/crash-store "$@"

# Four writers overwrite and delete keys of one durable file with automatic compaction;
# samples of file size against live bytes go to FILE as JSON lines; fails past the documented bound.
# Space amplification of the tree store over a long run. Keys: writes=N [keys=20000] [auto=BYTES] [out=space.jsonl]
space-store *args:
    ./scripts/space-store "$@"

# Six clients write documents and scores to pure-serve --data, which is killed with
# SIGKILL at a random moment and restarted; the output ends "N cycles, A acknowledged, L lost".
# With app=tpcc: 16 TPC-C terminals instead, and consistency 1-4 and every acknowledged
# New-Order checked after each restart.
# Crash-test the HTTP server. Keys: cycles=N (default 20) app=scores|tpcc
crash-serve *args:
    ./scripts/crash-serve "$@"

# Each server pinned to CPU 0, pure-load to CPU 1, the order rotated each round;
# writes experiments/EXP/runs.jsonl and its note (about 22 minutes with the defaults).
# With a second machine, listen=IP load-via='ssh HOST' load-bin=PATH runs the load there.
# Compare pure-serve with the HTTP servers a Go user would write. Keys: rounds=3 duration=10s servers=ID,... work=W,... exp=NNN-slug data=DIR cpus=0,1 before=REV profile=1 listen=IP load-via=CMD load-bin=PATH
http *args:
    go run ./cmd/pure-http run "$@"

# Fuzz the HTTP request parser (smuggling, bad framing) for a while. Keys: time=1m
fuzz-serve *args:
    t=1m; for a in "$@"; do case $a in time=*) t=${a#time=} ;; *) echo "fuzz-serve: argument '$a': use time=DURATION" >&2; exit 2 ;; esac; done; \
    go test -run '^$' -fuzz '^FuzzParseRequest$' -fuzztime "$t" ./pure/serve/

# base=REV also runs pure-load built from REV in every round (rotated) and compares with it.
# Measure pure-load against wrk on the same server (experiment 026). Keys: rounds=N (default 7) base=REV
load-vs-wrk *args:
    r=7; b=; for a in "$@"; do case $a in rounds=*) r=${a#rounds=} ;; base=*) b=${a#base=} ;; *) echo "load-vs-wrk: argument '$a': use rounds=N or base=REV" >&2; exit 2 ;; esac; done; \
    ROUNDS="$r" BASE="$b" experiments/026-load-against-wrk/run.sh

# Run notebooks and write their outputs into them. Keys: name=NN (default all)
notebook *args:
    n=(); for a in "$@"; do case $a in name=*) n+=("${a#name=}") ;; *) echo "notebook: argument '$a': use name=NN" >&2; exit 2 ;; esac; done; \
    go run ./cmd/pure-notebook run "${n[@]}"

# Check that every notebook's cells still give their stored outputs (changes no file).
notebook-check:
    go run ./cmd/pure-notebook check

# Run the tests (the README's test command).
test:
    go test ./...

# Lint: go vet and staticcheck (fetched through the module proxy on first use).
lint:
    go vet ./...
    go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

# Count registered workloads. Keys: backend=callgrind|perf r=REPEATS n=OPS w="W1 W2" (default all)
count *args:
    ./scripts/kv pure-count-run "$@"

# Count a whole command like perf stat. Keys: e=EVENTS r=REPEATS backend=perf|callgrind cmd="CMD ARGS" (e defaults to what the backend counts)
stat *args:
    ./scripts/kv pure-count-stat "$@"

# Go benchmarks with instructions/op (under callgrind where there is no PMU). Keys: pkg=./perfcount/... bench=REGEXP n=ITERATIONS
bench *args:
    ./scripts/bench-count "$@"
