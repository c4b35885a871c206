# Sourced by cg.sh and screen.sh (which set here, repo and revs): a work
# directory $work (/tmp/$1.XXXXXX) removed on exit; pure-load built from
# each name=rev of $revs and from the work tree ("tree"), their names in
# the array names; one pure-serve --ram on CPU 0 (srv_pid), seeded, at url.
# The default base is 0839904, main where this probe forked.
lab_start() {
	work=$(mktemp -d "/tmp/$1.XXXXXX")
	srv_pid=
	trap 'if [[ -n $srv_pid ]]; then kill "$srv_pid" 2>/dev/null || true; wait "$srv_pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
	names=()
	local nr name rev
	for nr in $revs; do
		name=${nr%%=*} rev=${nr#*=}
		(cd "$repo" && git worktree add -q --detach "$work/src" "$rev")
		(cd "$work/src" && go build -o "$work/$name" ./cmd/pure-load)
		(cd "$repo" && git worktree remove --force "$work/src")
		names+=("$name")
	done
	(cd "$repo" && go build -o "$work/tree" ./cmd/pure-load && go build -o "$work/pure-serve" ./cmd/pure-serve)
	names+=(tree)
	taskset -c 0 "$work/pure-serve" --addr 127.0.0.1:0 --ram > "$work/serve.out" 2> "$work/serve.err" &
	srv_pid=$!
	for _ in $(seq 50); do grep -q . "$work/serve.out" && break; sleep 0.1; done
	url="http://$(awk '{print $NF}' "$work/serve.out" | head -1)"
	GOMAXPROCS=1 taskset -c 1 "$work/tree" --workload seed --json "$url" > /dev/null
}
