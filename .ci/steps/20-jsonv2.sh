#!/usr/bin/env bash
# Runs vet and the tests again with GOEXPERIMENT=jsonv2. Under that
# experiment (Go 1.25+), github.com/go-json-experiment/json aliases the
# standard library's encoding/json/v2 and encoding/json/jsontext, which lag
# the module: for example the `embed` struct option is ignored, a
# MarshalToFunc skips with json.SkipFunc instead of errors.ErrUnsupported,
# and error texts differ. The library must behave the same either way.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS="${GOFLAGS:-} -mod=mod"

go version
GOEXPERIMENT=jsonv2 go vet ./...
GOEXPERIMENT=jsonv2 go test ./...
