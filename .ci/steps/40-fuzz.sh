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

# New interesting inputs are minimized for at most 2 s (the default, 60 s,
# can eat a short budget whole while the exec count stands still).
#
# Go 1.26's fuzz coordinator can fail a target with a bare "context
# deadline exceeded" at the -fuzztime boundary when a worker misses the
# stop deadline on a busy machine (golang/go#75804, fixed in Go 1.27). Such
# a run writes no failing input; it is told apart from a real finding by
# that, and the target's corpus is then replayed to confirm nothing fails.
failed=0
for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  echo "== $name ($pkg)"
  dir=$(go list -f '{{.Dir}}' "$pkg")/testdata/fuzz/$name
  before=$(ls "$dir" 2>/dev/null | sort || true)
  if out=$(go test -run '^$' -fuzz "^${name}\$" -fuzztime "${each}s" -fuzzminimizetime 2s "$pkg" 2>&1); then
    printf '%s\n' "$out" | tail -n 2
    continue
  fi
  printf '%s\n' "$out" | tail -n 25
  after=$(ls "$dir" 2>/dev/null | sort || true)
  if [ "$before" = "$after" ] && printf '%s\n' "$out" | grep -q '^    context deadline exceeded$'; then
    echo "-- $name: the fuzz coordinator's deadline race (golang/go#75804), no failing input written; replaying the corpus"
    if go test -run "^${name}\$" "$pkg"; then
      continue
    fi
  fi
  echo "-- $name: FAILED"
  failed=1
done
exit $failed
