#!/usr/bin/env bash
# BROKEN ON PURPOSE, in a subtler way: the usual repair of handbuilt.sh.
# It builds updatedInput with jq from the incoming tool_input, so no member
# is lost, but jq decodes and encodes every value again: big integers are
# rounded, 2.50 becomes 2.5, escapes are rewritten, and a lone surrogate
# escape makes jq fail.
set -euo pipefail
payload=$(cat)
case $payload in
*'"hook_event_name":"PreToolUse"'*'"tool_name":"mcp__'*'__listen_here"'*) ;;
*) exit 0 ;;
esac
fp=$(jq -j .cwd <<<"$payload" | sha256sum | cut -c1-16)
jq -c --arg fp "$fp" '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: (.tool_input + {fingerprint: $fp})}}' <<<"$payload"
