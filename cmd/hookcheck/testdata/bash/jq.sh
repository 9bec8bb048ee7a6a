#!/usr/bin/env bash
# BROKEN ON PURPOSE, in a subtler way: the usual repair of handbuilt.sh.
# It builds updatedInput with jq from the incoming tool_input, so no member
# is lost, but jq decodes and encodes every value again. Most of what it
# rewrites Claude Code never sends (big integers rounded, 2.50 written 2.5,
# escapes rewritten: the strict tier), but JSON.stringify does send lone
# surrogates, and jq 1.6 turns a lone low surrogate into U+FFFD and fails
# on a lone high one.
set -euo pipefail
payload=$(cat)
case $payload in
*'"hook_event_name":"PreToolUse"'*'"tool_name":"mcp__'*'__listen_here"'*) ;;
*) exit 0 ;;
esac
fp=$(jq -j .cwd <<<"$payload" | sha256sum | cut -c1-16)
jq -c --arg fp "$fp" '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: (.tool_input + {fingerprint: $fp})}}' <<<"$payload"
