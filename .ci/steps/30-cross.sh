#!/usr/bin/env bash
# Cross-compiles every command (each package main under examples/ and
# cmd/) with CGO_ENABLED=0 for every target a hook ships to besides the
# host: linux/386, linux/arm, linux/arm64, linux/riscv64, darwin/amd64,
# darwin/arm64, windows/amd64 and windows/arm64. It checks that each
# result is an executable of the right kind (format, word size and machine
# from its header), and vets the whole module for each target so that
# platform-specific files and tests type-check too.
#
# Then it runs tests on the 32-bit targets: every package's tests for
# linux/386 (natively, where the kernel runs 386 binaries), and the root
# package's and hooktest's for linux/arm under qemu-arm-static (the Debian
# package qemu-user-static, installed when missing and apt-get is there).
# HOOK_CROSS_TESTS=0 skips those runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS="${GOFLAGS:-} -mod=mod"

targets=(linux/386 linux/arm linux/arm64 linux/riscv64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64)

patterns=()
for dir in examples cmd; do
  [ -d "$dir" ] && patterns+=("./$dir/...")
done
if [ ${#patterns[@]} -eq 0 ]; then
  echo "no examples/ or cmd/ directory" >&2
  exit 1
fi
mapfile -t mains < <(go list -f '{{if eq .Name "main"}}{{.ImportPath}}{{end}}' "${patterns[@]}" | sed '/^$/d')
if [ ${#mains[@]} -eq 0 ]; then
  echo "no package main under ${patterns[*]}" >&2
  exit 1
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# hex prints n bytes of a file from offset off as hex, in file order.
hex() { od -An -tx1 -j"$2" -N"$3" "$1" | tr -d ' \n'; }

# header prints what an executable's header says it is, in the form
# "format bits machine" (for example "elf 32 arm"), or "unknown <bytes>".
header() {
  local bin=$1 magic
  magic=$(hex "$bin" 0 4)
  case $magic in
    7f454c46)   # ELF: class at 4, e_machine (little-endian) at 18
      local class machine
      case $(hex "$bin" 4 1) in 01) class=32 ;; 02) class=64 ;; *) class=? ;; esac
      case $(hex "$bin" 18 2) in
        0300) machine=386 ;; 3e00) machine=amd64 ;; 2800) machine=arm ;;
        b700) machine=arm64 ;; f300) machine=riscv64 ;; *) machine=$(hex "$bin" 18 2) ;;
      esac
      echo "elf $class $machine" ;;
    cffaedfe)   # Mach-O 64-bit, little-endian: cputype at 4
      case $(hex "$bin" 4 4) in
        07000001) echo "macho 64 amd64" ;; 0c000001) echo "macho 64 arm64" ;;
        *) echo "macho 64 $(hex "$bin" 4 4)" ;;
      esac ;;
    4d5a*)      # "MZ": the PE header's offset is at 0x3c, then "PE\0\0" and the machine
      local pe
      pe=$(od -An -tu4 -j60 -N4 "$bin" | tr -d ' ')
      if [ "$(hex "$bin" "$pe" 4)" != 50450000 ]; then echo "mz-without-pe"; return; fi
      case $(hex "$bin" $((pe + 4)) 2) in
        6486) echo "pe 64 amd64" ;; 64aa) echo "pe 64 arm64" ;; 4c01) echo "pe 32 386" ;;
        *) echo "pe ? $(hex "$bin" $((pe + 4)) 2)" ;;
      esac ;;
    *) echo "unknown $magic" ;;
  esac
}

for target in "${targets[@]}"; do
  goos=${target%/*}
  goarch=${target#*/}
  case $goos in linux) format=elf ;; darwin) format=macho ;; windows) format=pe ;; esac
  case $goarch in 386 | arm) bits=32 ;; *) bits=64 ;; esac
  want="$format $bits $goarch"
  echo "== $target: ${#mains[@]} commands, then go vet ./..."
  dir="$out/$goos-$goarch"
  mkdir -p "$dir"
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -o "$dir/" "${mains[@]}"
  for pkg in "${mains[@]}"; do
    bin="$dir/${pkg##*/}"
    [ "$goos" = windows ] && bin="$bin.exe"
    if [ ! -s "$bin" ]; then
      echo "$pkg for $target: no executable $bin" >&2
      exit 1
    fi
    got=$(header "$bin")
    if [ "$got" != "$want" ]; then
      echo "$pkg for $target: the header says \"$got\", want \"$want\"" >&2
      exit 1
    fi
  done
  echo "   ok: every command is \"$want\""
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go vet ./...
done

if [ "${HOOK_CROSS_TESTS:-}" = "0" ]; then
  echo "32-bit test runs: skipped (HOOK_CROSS_TESTS=0)"
  exit 0
fi

# The linux/arm test run needs qemu-user.
if ! command -v qemu-arm-static >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo -n"
  { $sudo apt-get update -qq && $sudo apt-get install -y -qq qemu-user-static; } >/dev/null 2>&1 \
    || echo "could not install qemu-user-static" >&2
fi
need_qemu() {
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "$2 tests: $1 is needed (Debian package qemu-user-static)" >&2
  exit 1
}

# linux/386: every package's tests (the e2e tests skip without HOOK_E2E;
# .ci/steps/50-e2e.sh runs them), natively on an amd64 Linux kernel that
# runs 386 binaries. Where it cannot (no IA-32 emulation, as in some
# containers: "exec format error"), qemu-i386 is no way out: Go's 386
# runtime crashes under it ("bad g in signal handler"), so the run is left
# out with a note, and linux/arm below stands for the 32-bit targets.
if [ "$(go env GOHOSTOS)/$(go env GOHOSTARCH)" = linux/amd64 ]; then
  set +e
  "$out/linux-386/hookctl" -h </dev/null >/dev/null 2>&1
  rc=$?
  set -e
  if [ "$rc" -eq 126 ]; then
    echo "== linux/386 tests: not run, this kernel cannot execute 386 binaries"
  else
    echo "== linux/386: go test ./..."
    CGO_ENABLED=0 GOARCH=386 go test ./...
  fi
fi

# linux/arm under qemu-user: the root package's and hooktest's tests, each
# test binary run by qemu-arm-static (go test -exec), without GOARCH and
# GOARM in its environment, so that the hooks hooktest's tests build with
# the go command are host binaries. The tests that run the test binary
# itself as a child process need the kernel to hand an arm executable to
# qemu (binfmt_misc, which the Debian package registers on a normal host);
# without it they are left out, and named.
need_qemu qemu-arm-static linux/arm
skip=()
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-arm ]; then
  skip=(-skip '^(TestRunDelivers|TestRunProcess|TestServeMemory100MB|TestHostileValuesProcess)$')
  echo "== no binfmt_misc entry for arm: leaving out ${skip[1]} (they run the test binary as a child)"
fi
echo "== linux/arm under qemu-arm-static: go test . ./hooktest"
CGO_ENABLED=0 GOARCH=arm GOARM=7 go test -exec 'env -u GOARCH -u GOARM qemu-arm-static' "${skip[@]}" . ./hooktest
