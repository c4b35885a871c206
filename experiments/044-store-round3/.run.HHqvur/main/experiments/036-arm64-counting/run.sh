#!/usr/bin/env bash
# Experiment 036: can arm64 instructions be counted on this x86-64 machine?
#
# Tries, in order, each instrument the issue names and records what each one
# did as one JSON line in attempts.jsonl (the command, its exit status, the
# lines of its output that say what happened), then writes note.md from
# those lines with note.sh:
#   A. Debian's valgrind for arm64 (valgrind:arm64, the same 3.19 as the
#      host's) under qemu-aarch64-static, through its launcher;
#   B. the same valgrind's tools started directly under qemu (no launcher
#      exec), on a Go guest and on a C guest from the same package;
#   C. B with qemu's guest address space reserved or moved (-R, -B);
#   D. qemu's TCG plugins: does the static or the dynamic qemu-user load
#      them, and does any Debian qemu package ship one (libinsn.so);
#   E. qemu's own execution log (-d in_asm,exec,nochain), counted block by
#      block by notebooks/qcount, on arm64 and, as a cross-check against
#      callgrind, on amd64.
#
# Needs root for apt-get (it downloads .deb files into a scratch directory
# and installs nothing; to download arm64 packages it adds dpkg's arm64
# architecture and removes it again at the end if it was not there).
# About 2 minutes. Usage: experiments/036-arm64-counting/run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=experiments/036-arm64-counting
out=$dir/attempts.jsonl
tmp=$(mktemp -d)
added=0
cleanup() {
  rm -rf "$tmp"
  if [ "$added" = 1 ]; then dpkg --remove-architecture arm64 && apt-get update -qq >/dev/null 2>&1; fi
}
trap cleanup EXIT
: > "$out"

# record ID WHAT GREP-PATTERN COMMAND...: run COMMAND (its output to
# $tmp/ID.out), keep the lines matching PATTERN (at most 12), append a line.
record() {
  local id=$1 what=$2 pat=$3; shift 3
  local rc
  timeout 300 bash -c "$*" > "$tmp/$id.out" 2>&1; rc=$?
  grep -E -- "$pat" "$tmp/$id.out" | sed -E "s/^==[0-9]+==/==PID==/; s/^--[0-9]+--/--PID--/; s#$tmp#\$TMP#g" | head -12 > "$tmp/$id.keep"
  jq -cn --arg id "$id" --arg what "$what" --arg cmd "${*//$tmp/\$TMP}" --argjson rc "$rc" \
    --rawfile keep "$tmp/$id.keep" \
    '{attempt:$id, what:$what, command:$cmd, exit:$rc, output:($keep|rtrimstr("\n")|split("\n"))}' >> "$out"
  echo "$id: exit $rc"
}

host() {
  jq -cn --arg qemu "$(qemu-aarch64-static --version | head -1)" --arg vg "$(valgrind --version)" \
    --arg go "$(go version)" --arg kernel "$(uname -r)" --arg load "$(cut -d' ' -f1-3 /proc/loadavg)" \
    --arg date "$(date -u +%FT%TZ)" \
    '{attempt:"host", qemu:$qemu, valgrind:$vg, go:$go, kernel:$kernel, loadavg:$load, date:$date}' >> "$out"
}
host

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  dpkg --add-architecture arm64 && added=1
  apt-get update -qq >/dev/null 2>&1
fi
R=$tmp/root
(cd "$tmp" && apt-get download valgrind:arm64 libc6:arm64 qemu-user qemu-system-common qemu-system-data libcapstone4 liburing2 >/dev/null 2>&1)
mkdir -p "$R" "$tmp/qu"
dpkg-deb -x "$tmp"/valgrind_*_arm64.deb "$R"
dpkg-deb -x "$tmp"/libc6_*_arm64.deb "$R"
GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go build -o "$tmp/pure-count-arm64" ./cmd/pure-count
VG="VALGRIND_LIB=$R/usr/libexec/valgrind VALGRIND_LAUNCHER=$R/usr/bin/valgrind.bin"
Q="qemu-aarch64-static -L $R"
vgpat='Exec format|failed|SIGSEGV|Access not|at 0x|by 0x|Cannot allocate|allocate memory|I +refs|Collected|^[a-z-]+-10k|^Usage'

record A-launcher "valgrind:arm64's launcher under qemu-aarch64-static, callgrind on an arm64 Go binary" "$vgpat" \
  "VALGRIND_LIB=$R/usr/libexec/valgrind $Q $R/usr/bin/valgrind.bin --tool=callgrind --callgrind-out-file=$tmp/a.cg $tmp/pure-count-arm64 list"
record B-go "valgrind:arm64's callgrind tool started directly under qemu, on an arm64 Go binary (pure-count list)" "$vgpat" \
  "$VG $Q $R/usr/libexec/valgrind/callgrind-arm64-linux --callgrind-out-file=$tmp/b.cg $tmp/pure-count-arm64 list"
record B-go-stack "as B-go with a 64 MiB main stack" "$vgpat" \
  "$VG $Q $R/usr/libexec/valgrind/callgrind-arm64-linux --main-stacksize=67108864 --callgrind-out-file=$tmp/b2.cg $tmp/pure-count-arm64 list"
record B-c "valgrind:arm64's callgrind tool started directly under qemu, on an arm64 C binary (the package's own vgdb --help)" "$vgpat" \
  "$VG $Q $R/usr/libexec/valgrind/callgrind-arm64-linux --callgrind-out-file=$tmp/c.cg $R/usr/bin/vgdb --help"
record C-reserve "as B-go with qemu's guest address space reserved (-R 0x4000000000)" "$vgpat" \
  "$VG qemu-aarch64-static -R 0x4000000000 -L $R $R/usr/libexec/valgrind/callgrind-arm64-linux --callgrind-out-file=$tmp/d.cg $tmp/pure-count-arm64 list"
record C-base "as B-go with the guest moved to a base of 1 TiB (-B 0x10000000000)" "$vgpat" \
  "$VG qemu-aarch64-static -B 0x10000000000 -L $R $R/usr/libexec/valgrind/callgrind-arm64-linux --callgrind-out-file=$tmp/e.cg $tmp/pure-count-arm64 list"

record D-static "does qemu-aarch64-static take -plugin?" 'plugin' \
  "qemu-aarch64-static -plugin help $tmp/pure-count-arm64 list"
dpkg-deb -x "$tmp"/qemu-user_*.deb "$tmp/qu"; dpkg-deb -x "$tmp"/libcapstone4_*.deb "$tmp/qu"; dpkg-deb -x "$tmp"/liburing2_*.deb "$tmp/qu"
record D-dynamic "does the dynamic qemu-aarch64 (Debian's qemu-user, same version) take -plugin? (asked for a plugin that does not exist)" 'plugin|version' \
  "LD_LIBRARY_PATH=$tmp/qu/usr/lib/x86_64-linux-gnu $tmp/qu/usr/bin/qemu-aarch64 --version | head -1; LD_LIBRARY_PATH=$tmp/qu/usr/lib/x86_64-linux-gnu $tmp/qu/usr/bin/qemu-aarch64 -h | grep -i plugin; LD_LIBRARY_PATH=$tmp/qu/usr/lib/x86_64-linux-gnu $tmp/qu/usr/bin/qemu-aarch64 -plugin /nonexistent/libinsn.so $tmp/pure-count-arm64 list"
record D-packaged "files named like a TCG plugin (plugin, libinsn, lib*.so outside the module loader) in Debian's qemu-user, qemu-system-common and qemu-system-data" '.' \
  "for d in $tmp/qemu-user_*.deb $tmp/qemu-system-common_*.deb $tmp/qemu-system-data_*.deb; do n=\$(dpkg-deb -c \$d | wc -l); p=\$(dpkg-deb -c \$d | grep -c -i -E 'plugin|libinsn|/lib[a-z]+\\.so'); echo \"\$(basename \$d): \$n files, \$p plugin files\"; done"

record E-arm64 "qemu's execution log counted block by block (notebooks/qcount), arm64" '^[a-z]' \
  "go run ./notebooks/qcount -arch arm64 -via qemu -n 1 -r 2 sort-ints-10k itoa-strconv-10k"
record E-amd64 "the same method on amd64 beside callgrind's count of the same guest binary" '^[a-z]' \
  "go run ./notebooks/qcount -arch amd64 -via callgrind -n 1 -r 2 sort-ints-10k itoa-strconv-10k; go run ./notebooks/qcount -arch amd64 -via qemu -n 1 -r 2 sort-ints-10k itoa-strconv-10k | tail -n +2"
host
"$dir/note.sh"
