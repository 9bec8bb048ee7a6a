#!/usr/bin/env bash
# The bug of the seed case: the hook answers only the member it adds, so
# Claude Code replaces the whole tool input with {"fingerprint": ...} and the
# room the model chose is lost.
cat >/dev/null
printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"fingerprint":"%s"}}}\n' "0123456789abcdef"
