#!/usr/bin/env bash
# Go 1.27, the newest release, through GOTOOLCHAIN (the go command fetches
# go1.27.4 from the module proxy once, then keeps it in the module cache).
# Go 1.27 turns the jsonv2 experiment on by default, so that
# github.com/go-json-experiment/json aliases encoding/json/v2 there; the
# library must build and behave the same with it off. The steps before
# this one cover Go 1.26 with jsonv2 off (.ci/run) and on (20-jsonv2.sh).
#
# Cost: the whole suite once, with 1.27's default (jsonv2 on); with
# GOEXPERIMENT=nojsonv2, vet and build everything and test the packages
# that read and write JSON themselves (the root, internal/..., hooktest,
# settings, cmd/hookcheck); the examples, hookctl and claudetest use them
# through those. HOOK_GO127_FULL=1 runs the whole suite for both.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS="${GOFLAGS:-} -mod=mod"
export GOTOOLCHAIN=go1.27.4

go version
echo "== Go 1.27 (jsonv2 on by default): go vet, go test ./..."
go vet ./...
go test ./...

echo "== Go 1.27 with GOEXPERIMENT=nojsonv2: go vet, go build, the JSON packages' tests"
export GOEXPERIMENT=nojsonv2
go vet ./...
go build ./...
if [ "${HOOK_GO127_FULL:-}" = "1" ]; then
  go test ./...
else
  go test . ./internal/... ./hooktest ./settings ./cmd/hookcheck
fi
