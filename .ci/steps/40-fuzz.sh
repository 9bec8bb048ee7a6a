#!/usr/bin/env bash
# Runs every fuzz target of the module briefly. Targets are discovered with
# `go test -list '^Fuzz' ./...`; the time budget (FUZZ_BUDGET seconds, 150
# by default) is shared among them, at most FUZZ_MAX (30) and at least
# FUZZ_MIN (5) seconds each. A failing input is written by `go test` under
# the package's testdata/fuzz/<target>/ and fails this step.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS="${GOFLAGS:-} -mod=mod"

budget=${FUZZ_BUDGET:-150}
most=${FUZZ_MAX:-30}
least=${FUZZ_MIN:-5}

# `go test -list` prints a package's matching names, then its "ok" line.
listing=$(go test -list '^Fuzz' ./...)
mapfile -t targets < <(awk '
  /^Fuzz/ { names[++n] = $1; next }
  /^ok/   { for (i = 1; i <= n; i++) print $2, names[i]; n = 0 }' <<<"$listing")
if [ ${#targets[@]} -eq 0 ]; then
  echo "no fuzz targets found" >&2
  exit 1
fi
each=$(( budget / ${#targets[@]} ))
(( each > most )) && each=$most
(( each < least )) && each=$least
echo "${#targets[@]} fuzz targets, ${each}s each"

for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  echo "== $name ($pkg)"
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "${each}s" "$pkg"
done
