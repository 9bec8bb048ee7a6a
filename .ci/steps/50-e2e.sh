#!/usr/bin/env bash
# End-to-end tests: the example hooks and the library's claims, checked
# against the real Claude Code CLI run headless against a fake Messages API
# on 127.0.0.1 (see the README's "Testing against the real Claude Code"),
# against the real Codex CLI against a fake Responses API, and against the
# real GitHub Copilot CLI against a fake chat-completions API; claudetest's
# own tests, which prove a hook from a module of its own, and codextest's.
# claudetest installs Claude Code (claudetest.Version, 2.1.336: the
# platform's native package, @anthropic-ai/claude-code-linux-x64, …),
# codextest @openai/codex, the e2e tests @github/copilot, with npm into a cache folder when missing, once
# for all test packages (a file lock makes the others wait for the first);
# the tests run in a network
# namespace that has only loopback where `unshare -n` works.
#
# Run by .ci/run from the repository root after `go test ./...`. It runs on
# CI (CI=true) and locally alike; HOOK_E2E=0 skips it. A test that skips
# here (Claude Code, Codex or Copilot could not be installed or run) fails the step: for a
# user a skip is right, for this project's CI it hides a broken set-up.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${HOOK_E2E:-}" = "0" ]; then
  echo "e2e: skipped (HOOK_E2E=0)"
  exit 0
fi
for tool in go npm; do
  command -v "$tool" >/dev/null || { echo "e2e: $tool is needed" >&2; exit 1; }
done

export HOOK_E2E=1
# Each claude or codex run is bounded at 120 s by the tests; the whole
# suite takes about a minute (plus about 10 s for each first install).
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
go test -count=1 -parallel 3 -timeout 20m -v ./e2e/ ./claudetest/ ./codextest/ 2>&1 | tee "$log" | grep -E --line-buffered -v '^=== (RUN|PAUSE|CONT|NAME)'
status=${PIPESTATUS[0]}
set -e
if [ "$status" -eq 0 ] && grep -E -q -- '--- SKIP' "$log"; then
  echo "e2e: tests skipped, so Claude Code, Codex or Copilot could not be run here:" >&2
  grep -E -A1 -- '--- SKIP' "$log" >&2
  exit 1
fi
exit "$status"
