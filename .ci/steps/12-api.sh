#!/usr/bin/env bash
# The public API is what api/ says: internal/apicheck lists every exported
# name of the public packages with its signature and fails when a line of
# a released listing (api/v0.1.0.txt, …) is gone or changed, or when a new
# line is not in api/next.txt (it prints the lines to add). After an
# intended API change, run from the module root:
#   go run ./internal/apicheck -next             (new API since the release)
#   go run ./internal/apicheck -release v0.1.0   (before the first tag only)
# See docs/design.md, "Where a change goes".
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS="${GOFLAGS:-} -mod=mod"

go run ./internal/apicheck
