# Sourced by this probe's run-ab.sh and run-abc.sh (which set root and tmp):
# build REV NAME [PATCH...]: pure-kvbench from revision REV of the
# repository with the patches applied, as $tmp/kv-NAME.
build() {
  local rev=$1 name=$2 p; shift 2
  mkdir "$tmp/$name"
  (cd "$root" && git archive "$rev" | tar -x -C "$tmp/$name")
  (cd "$tmp/$name" && for p in "$@"; do git apply "$p"; done && CGO_ENABLED=0 go build -o "$tmp/kv-$name" ./cmd/pure-kvbench)
}
