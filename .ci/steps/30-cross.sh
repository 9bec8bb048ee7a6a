#!/usr/bin/env bash
# Cross-compiles every command (each package main under examples/ and
# cmd/) for windows/amd64, darwin/arm64 and linux/arm64 with CGO_ENABLED=0,
# checks that each result is an executable of the right kind, and vets the
# whole module for each target so that platform-specific files and tests
# type-check too.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS="${GOFLAGS:-} -mod=mod"

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

# magic prints the first n bytes of a file as hex.
magic() { od -An -tx1 -N "$2" "$1" | tr -d ' \n'; }

for target in windows/amd64 darwin/arm64 linux/arm64; do
  goos=${target%/*}
  goarch=${target#*/}
  echo "== $target: ${#mains[@]} commands"
  dir="$out/$goos-$goarch"
  mkdir -p "$dir"
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -o "$dir/" "${mains[@]}"
  case $target in
    windows/amd64) want=4d5a ;;       # "MZ"
    darwin/arm64)  want=cffaedfe ;;   # Mach-O 64-bit
    linux/arm64)   want=7f454c46 ;;   # ELF
  esac
  for pkg in "${mains[@]}"; do
    bin="$dir/${pkg##*/}"
    [ "$goos" = windows ] && bin="$bin.exe"
    if [ ! -s "$bin" ]; then
      echo "$pkg for $target: no executable $bin" >&2
      exit 1
    fi
    got=$(magic "$bin" $(( ${#want} / 2 )))
    if [ "$got" != "$want" ]; then
      echo "$pkg for $target: not a $target executable (starts with $got)" >&2
      exit 1
    fi
    if [ "$target" = linux/arm64 ]; then
      machine=$(od -An -tx1 -j18 -N2 "$bin" | tr -d ' \n')   # e_machine
      if [ "$machine" != b700 ]; then
        echo "$pkg for linux/arm64: e_machine $machine, want b700 (aarch64)" >&2
        exit 1
      fi
    fi
    echo "   ok ${pkg}"
  done
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go vet ./...
done
