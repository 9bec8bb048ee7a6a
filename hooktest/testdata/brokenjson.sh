#!/usr/bin/env bash
# Builds its JSON by hand and leaves a trailing comma.
cat >/dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow",}}'
