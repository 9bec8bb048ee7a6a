#!/usr/bin/env bash
# BROKEN ON PURPOSE. A PreToolUse hook for the MCP tool listen_here that
# adds a fingerprint of the working directory to the call, written the way
# many hooks are: it picks fields out of the payload with string tricks and
# prints its answer with printf. Its updatedInput holds only the
# fingerprint, so Claude Code calls the tool without the room; and a room
# with a quote, a backslash or a tab breaks the JSON it prints.
payload=$(cat)
case $payload in
*'"hook_event_name":"PreToolUse"'*'"tool_name":"mcp__'*'__listen_here"'*) ;;
*) exit 0 ;;
esac
cwd=${payload#*\"cwd\":\"}
cwd=${cwd%%\"*}
room=${payload#*\"room\":\"}
room=${room%%\"*}
fp=$(printf '%s' "$cwd" | sha256sum | cut -c1-16)
printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fingerprinted the call to room %s","updatedInput":{"fingerprint":"%s"}}}\n' "$room" "$fp"
