# Sourced by run.sh and by probe 993's run.sh: the lab both stand up.
#   lab_workdir NAME     a fresh work directory $work (/tmp/NAME.XXXXXX),
#                        removed on exit with nginx stopped
#   lab_build_pure_load REPO REV OUT
#                        pure-load built from revision REV of REPO into OUT
#   lab_nginx REPO       nginx (one worker, pinned to CPU 0) serving 64 files
#                        of 64 B (/docs/d00 ... /docs/d63) from $work on a
#                        free loopback port; sets port, url, nginx_pid, worker

lab_workdir() {
	work=$(mktemp -d "/tmp/$1.XXXXXX")
	chmod 755 "$work"
	nginx_pid=
	trap lab_cleanup EXIT
}

lab_cleanup() {
	if [[ -n $nginx_pid ]]; then kill "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}

lab_build_pure_load() {
	local repo=$1 rev=$2 out=$3
	(cd "$repo" && git worktree add -q --detach "$work/base-src" "$rev")
	(cd "$work/base-src" && go build -o "$out" ./cmd/pure-load)
	(cd "$repo" && git worktree remove --force "$work/base-src")
}

lab_nginx() {
	local repo=$1 i
	mkdir -p "$work/www/docs" "$work/tmp"
	for i in $(seq -f %02g 0 63); do
		printf '%-63.63s\n' "document d$i served by nginx for experiment 026 ........................" > "$work/www/docs/d$i"
	done
	[[ $(stat -c %s "$work/www/docs/d00") == 64 ]] || { echo "lab.sh: the static file is not 64 B" >&2; exit 1; }
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	sed -e "s#@DIR@#$work#g" -e "s#@PORT@#$port#g" "$repo/experiments/026-load-against-wrk/nginx.conf.in" > "$work/nginx.conf"
	taskset -c 0 /usr/sbin/nginx -c "$work/nginx.conf" -p "$work" &
	nginx_pid=$!
	for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/docs/d00" >/dev/null && break; sleep 0.1; done
	curl -fs "http://127.0.0.1:$port/docs/d00" >/dev/null || { echo "lab.sh: nginx did not come up on $port" >&2; exit 1; }
	worker=$(pgrep -P "$nginx_pid" | head -1)
	url="http://127.0.0.1:$port"
}
