#!/usr/bin/env bash
# Prints an allow answer and exits 2: Claude Code blocks with stderr and
# does not act on stdout.
cat >/dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'
echo "not allowed" >&2
exit 2
