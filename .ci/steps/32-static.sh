#!/usr/bin/env bash
# Builds every command hook under examples/ (each package main except the
# http server, which links net/http on purpose) with the defaults a user
# has — cgo enabled wherever a C compiler is installed — and checks that
# each result is statically linked: no program interpreter, no dynamic
# section. A hook that links net (through net/http) gets cgo's resolver
# and with it the build machine's C library, and breaks on another Linux
# once shipped in a plugin.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS="${GOFLAGS:-} -mod=mod"

if [ "$(go env GOOS)" != linux ]; then
  echo "static-link check runs on Linux (ELF) only; skipped on $(go env GOOS)"
  exit 0
fi
echo "cgo: CGO_ENABLED=$(go env CGO_ENABLED), CC=$(go env CC) ($(command -v "$(go env CC)" || echo 'not installed'))"

mapfile -t hooks < <(go list -f '{{if eq .Name "main"}}{{.ImportPath}}{{end}}' ./examples/... | sed '/^$/d' | grep -v '/examples/httpserver$')
case " ${hooks[*]} " in
  *" github.com/gohooks/hook/examples/fingerprint "*) ;;
  *) echo "examples/fingerprint is not among the command hooks: ${hooks[*]}" >&2; exit 1 ;;
esac

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/" "${hooks[@]}"

# dynamic reports whether the ELF file $1 asks for a program interpreter
# or has a dynamic section.
dynamic() {
  if command -v readelf >/dev/null; then
    readelf -lW "$1" | grep -qE '^\s*(INTERP|DYNAMIC)\b'
  elif command -v file >/dev/null; then
    ! file -b "$1" | grep -q 'statically linked'
  else
    # e_type and the program headers by hand would do; no tool is rarer
    # than this check is useful.
    echo "neither readelf nor file is installed" >&2
    exit 1
  fi
}

fail=0
for pkg in "${hooks[@]}"; do
  bin="$out/${pkg##*/}"
  if dynamic "$bin"; then
    echo "   DYNAMIC ${pkg}: $(readelf -pW .interp "$bin" 2>/dev/null | grep -o '/[^ ]*' | head -1)" >&2
    echo "   it links: $(go list -deps "$pkg" | grep -E '^(net|net/http|crypto/tls|runtime/cgo|os/user)$' | tr '\n' ' ')" >&2
    fail=1
  else
    echo "   static ${pkg}"
  fi
done
# The check itself: the http server links net and, with cgo, is dynamic.
if [ "$(go env CGO_ENABLED)" = 1 ]; then
  go build -o "$out/httpserver" ./examples/httpserver
  if ! dynamic "$out/httpserver"; then
    echo "examples/httpserver is static with cgo enabled: the check above cannot tell a dynamic binary" >&2
    fail=1
  fi
fi
exit $fail
