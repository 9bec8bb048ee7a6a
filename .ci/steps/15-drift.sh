#!/usr/bin/env bash
# Drift check against the Agent SDK: TestSDKDrift (drift_test.go) packs
# @anthropic-ai/claude-agent-sdk at the version the library is verified
# against (verifiedSDK, 0.3.336, for Claude Code 2.1.336) with npm (cached in the user cache folder, so only the first
# run needs the registry) and fails when an event, an input or output
# member or a tool input member is missing on either side.
#
# Run by .ci/run from the repository root. HOOK_SDK_DRIFT=0 skips it. The
# test skips itself when npm or the registry is missing; here a skip fails
# the step, since for this project's CI it hides a broken set-up. The
# report against the newest SDK is run by hand:
#   HOOK_SDK_VERSION=latest go test -count=1 -run TestSDKDrift -v .
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${HOOK_SDK_DRIFT:-}" = "0" ]; then
  echo "drift: skipped (HOOK_SDK_DRIFT=0)"
  exit 0
fi
for tool in go npm; do
  command -v "$tool" >/dev/null || { echo "drift: $tool is needed" >&2; exit 1; }
done

log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
# CI checks the verified version, whatever the caller's environment says.
env -u HOOK_SDK_VERSION go test -count=1 -run '^(TestSDKDrift|TestDrift.*)$' -v . 2>&1 | tee "$log" | grep -E --line-buffered -v '^=== (RUN|PAUSE|CONT|NAME)'
status=${PIPESTATUS[0]}
set -e
if [ "$status" -eq 0 ] && grep -E -q -- '--- SKIP' "$log"; then
  echo "drift: the test skipped, so the Agent SDK could not be packed here:" >&2
  grep -E -- 'drift: skipped:|--- SKIP' "$log" >&2
  exit 1
fi
exit "$status"
