#!/usr/bin/env bash
# Windows, proven under Wine: builds the windows/amd64 test binaries of the
# root package, hooktest and settings (go test -c) and runs them under
# Wine, then runs every example (each package main under examples/) on
# each of its testdata inputs, built for linux/amd64 and for
# windows/amd64, and fails unless the two answers (stdout and exit code)
# are byte-identical.
#
# It installs what it needs when missing (Debian's wine 8 and mingw-w64's
# C compiler, through apt-get) and sets Wine up in a prefix of its own:
#
#  - Go >= 1.22 programs need ProcessPrng from bcryptprimitives.dll, which
#    Wine 8 lacks: .ci/wine/processprng.c is a stand-in DLL, compiled here
#    and put in the prefix's system32.
#  - Wine 8 answers NtSetInformationFile(FileDispositionInformationEx) with
#    STATUS_NOT_IMPLEMENTED, where Windows 10 deletes the file and older
#    Windows says STATUS_INVALID_INFO_CLASS. Go's os.RemoveAll (and so every
#    t.TempDir cleanup) falls back to the old FileDispositionInfo call only
#    for the latter, so under Wine it fails on any non-empty folder. Rather
#    than excuse such failures in the tests' output (which could hide a real
#    one) or touch the tests, the test binaries are built with a -overlay
#    that adds STATUS_NOT_IMPLEMENTED to that fallback's list in the Go
#    toolchain's own internal/syscall/windows. A probe checks first that the
#    overlay is needed and that it works; the tests themselves are unchanged.
#  - No Windows Go toolchain runs inside Wine. hooktest's tests build small
#    Go hooks with hooktest.BuildGo ("go build -o OUT PKG"): those packages
#    are built for windows/amd64 here, and .ci/wine/gostandin, put on Wine's
#    PATH as go.exe, hands the prebuilt executables out.
#  - Wine does not pass HOME to Windows programs; the examples get the same
#    HOME as their Linux builds through the prefix's HKCU\Environment.
#
# The prefix and the overlay are kept in the user cache folder
# (hook-wine/), so that a second run neither boots Wine again nor rebuilds
# the standard library: the prefix is remade when Wine or the stand-in DLL
# changes. WINE_KEEP=1 keeps the work folder (binaries, logs) for a look.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS="${GOFLAGS:-} -mod=mod"
repo=$PWD
start=$SECONDS

# elapsed prints the seconds since the step started.
elapsed() { echo "$((SECONDS - start))s"; }

echo "== wine: tools"
missing=()
command -v wine >/dev/null 2>&1 || missing+=(wine wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-x86-64-win32)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo -n"
  echo "installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
wine --version

work=$(mktemp -d)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/hook-wine
mkdir -p "$cache"
export WINEPREFIX=$cache/prefix WINEARCH=win64 WINEDEBUG=-all
# No Mono or Gecko: nothing here needs them, and their installers prompt.
export WINEDLLOVERRIDES="mscoree,mshtml="
cleanup() {
  wineserver -k >/dev/null 2>&1 || true
  if [ "${WINE_KEEP:-}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# winpath prints the Windows path under which Wine sees the absolute Unix
# path $1 (Wine maps / to Z:).
winpath() { local p=${1//\//\\}; echo "Z:$p"; }

echo "== wine: prefix and the ProcessPrng stand-in ($(elapsed))"
x86_64-w64-mingw32-gcc -shared -O2 -s -o "$work/bcryptprimitives.dll" \
  .ci/wine/processprng.c .ci/wine/processprng.def -lbcrypt
stamp="$(wine --version) $(cat .ci/wine/processprng.c .ci/wine/processprng.def | sha256sum | cut -c1-16)"
if [ "$(cat "$WINEPREFIX/hook-wine.stamp" 2>/dev/null)" != "$stamp" ]; then
  wineserver -k >/dev/null 2>&1 || true
  rm -rf "$WINEPREFIX"
  wineboot --init >"$work/wineboot.log" 2>&1 || { cat "$work/wineboot.log" >&2; exit 1; }
  wineserver -w
  cp "$work/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"
  echo "$stamp" >"$WINEPREFIX/hook-wine.stamp"
else
  echo "reusing the prefix ($stamp)"
fi
# Keep one server for the whole step: each wine start is then quick. One
# may already run for this prefix (a developer's own wine session):
# wineserver -p then exits 2, and that server is used.
wineserver -p || echo "a wineserver already runs for this prefix: using it"
home=/home/dev
wine reg add 'HKCU\Environment' /v HOME /t REG_SZ /d "$home" /f >/dev/null

echo "== wine: os.RemoveAll probe ($(elapsed))"
mkdir -p "$work/probe"
cat >"$work/probe/main.go" <<'EOF'
// The probe fills a temporary folder and removes it, as t.TempDir does.
package main

import (
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dir, err := os.MkdirTemp("", "probe")
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	}
	if err == nil {
		err = os.RemoveAll(dir)
	}
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("removed")
}
EOF
(cd "$work/probe" && GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o probe.exe main.go)
overlay=()
if ! probe=$(wine "$work/probe/probe.exe" 2>&1); then
  echo "os.RemoveAll fails under this Wine ($probe); building with the overlay"
  at=$(go env GOROOT)/src/internal/syscall/windows/at_windows.go
  # A fixed place, so that the build cache, whose keys hold file names,
  # serves the standard library built with it to the next run.
  mkdir -p "$cache/overlay"
  want='	case STATUS_INVALID_INFO_CLASS, // the operating system doesn'"'"'t support FileDispositionInformationEx'
  if ! grep -qxF "$want" "$at"; then
    echo "the overlay no longer fits $at: look at Deleteat's fallback in this Go version" >&2
    exit 1
  fi
  awk -v want="$want" '{ print } $0 == want { print "\t\tNTStatus(0xC0000002), // STATUS_NOT_IMPLEMENTED: Wine 8 has no FileDispositionInformationEx" }' \
    "$at" >"$work/at_windows.go"
  cmp -s "$work/at_windows.go" "$cache/overlay/at_windows.go" || mv "$work/at_windows.go" "$cache/overlay/at_windows.go"
  printf '{"Replace":{"%s":"%s"}}\n' "$at" "$cache/overlay/at_windows.go" >"$work/overlay.json"
  overlay=(-overlay "$work/overlay.json")
  (cd "$work/probe" && GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build "${overlay[@]}" -o probe.exe main.go)
  if ! probe=$(wine "$work/probe/probe.exe" 2>&1); then
    echo "os.RemoveAll still fails with the overlay: $probe" >&2
    exit 1
  fi
fi
echo "probe: $probe"

echo "== wine: test binaries ($(elapsed))"
bin=$work/bin
mkdir -p "$bin"
pkgs=(. ./hooktest ./settings)
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -c "${overlay[@]}" -o "$bin/" "${pkgs[@]}"
# What the tests build with go build (hooktest.BuildGo), prebuilt (see
# gostandin): the hooks under hooktest/testdata, the root's testdata and
# cmd/hookcheck/testdata (hooktest's tests build some of those too).
pre=$work/prebuilt
for d in hooktest/testdata/*/ testdata/*/ cmd/hookcheck/testdata/*/; do
  d=${d%/}
  [ "$(go list -f '{{.Name}}' "./$d" 2>/dev/null)" = main ] || continue
  GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build "${overlay[@]}" -o "$pre/$d.exe" "./$d"
done
mkdir -p "$work/path"
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o "$work/path/go.exe" ./.ci/wine/gostandin
export WINEPATH HOOK_WINE_REPO HOOK_WINE_PREBUILT
WINEPATH=$(winpath "$work/path")
HOOK_WINE_REPO=$(winpath "$repo")
HOOK_WINE_PREBUILT=$(winpath "$pre")

echo "== wine: tests ($(elapsed))"
# The three binaries run side by side (the root's is the long one); each
# writes its log and its exit status, read below.
for p in "${pkgs[@]}"; do
  name=$(basename "$(go list "$p")")
  (
    t0=$SECONDS
    set +e
    (cd "$p" && wine "$bin/$name.test.exe" -test.v -test.timeout 15m) >"$work/$name.log" 2>&1
    echo "$? $((SECONDS - t0))" >"$work/$name.status"
  ) &
done
wait
failed=0
total_pass=0
for p in "${pkgs[@]}"; do
  name=$(basename "$(go list "$p")")
  log=$work/$name.log
  read -r status took <"$work/$name.status"
  pass=$(grep -c -- '--- PASS' "$log" || true)
  skip=$(grep -c -- '--- SKIP' "$log" || true)
  fail=$(grep -c -- '--- FAIL' "$log" || true)
  total_pass=$((total_pass + pass))
  echo "$p: exit $status, $pass passed, $fail failed, $skip skipped (tests and subtests), ${took}s"
  if [ "$status" -ne 0 ]; then
    failed=1
    grep -E -B1 -A12 -- '^\s*--- FAIL|^panic:|^FAIL' "$log" | head -n 120 || tail -n 40 "$log"
  fi
done

echo "== wine: examples, Linux and Windows answers compared ($(elapsed))"
mapfile -t examples < <(go list -f '{{if eq .Name "main"}}{{.Dir}}{{end}}' ./examples/... | sed '/^$/d')
mkdir -p "$work/linux" "$work/windows"
CGO_ENABLED=0 go build -o "$work/linux/" "${examples[@]}"
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o "$work/windows/" "${examples[@]}"
compared=0
for dir in "${examples[@]}"; do
  ex=$(basename "$dir")
  inputs=("$dir"/testdata/*.json)
  [ -e "${inputs[0]}" ] || continue
  for in in "${inputs[@]}"; do
    # Each run gets a fresh copy of the example's folder to work in, the
    # same for both builds (format, for one, writes the file it formats).
    for os in linux windows; do
      rm -rf "$work/run-$os"; cp -r "$dir" "$work/run-$os"
    done
    set +e
    (cd "$work/run-linux" && HOME=$home CLAUDE_PROJECT_DIR=/home/dev/acme-api "$work/linux/$ex" <"$in" >"$work/out-linux" 2>"$work/err-linux")
    lstatus=$?
    (cd "$work/run-windows" && CLAUDE_PROJECT_DIR=/home/dev/acme-api wine "$work/windows/$ex.exe" <"$in" >"$work/out-windows" 2>"$work/err-windows")
    wstatus=$?
    set -e
    label="${dir#"$repo"/} < ${in#"$dir"/}"
    if [ "$lstatus" = "$wstatus" ] && cmp -s "$work/out-linux" "$work/out-windows"; then
      echo "   same: $label (exit $lstatus, $(wc -c <"$work/out-linux") bytes)"
    else
      failed=1
      echo "   DIFFERENT: $label: exit $lstatus on Linux, $wstatus on Windows"
      diff <(od -c "$work/out-linux") <(od -c "$work/out-windows") | head -n 20 || true
      echo "   Windows stderr:"; head -n 20 "$work/err-windows"
    fi
    compared=$((compared + 1))
  done
done

echo "wine: $total_pass tests passed under Wine, $compared example answers compared, $(elapsed)"
exit $failed
