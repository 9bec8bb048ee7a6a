#!/usr/bin/env bash
# Generated code is fresh: `go generate ./...` (the protocol table's
# generator, internal/protocol/gen) must leave the tree unchanged.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS="${GOFLAGS:-} -mod=mod"
go generate ./...
if [ -n "$(git status --porcelain)" ]; then
  echo "go generate changed the tree; run it and commit the result:" >&2
  git status --porcelain >&2
  git --no-pager diff --stat >&2
  exit 1
fi
echo "generated code is fresh"
