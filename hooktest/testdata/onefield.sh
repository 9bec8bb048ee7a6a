#!/bin/sh
# BROKEN ON PURPOSE: the seed bug, printed with printf.
payload=$(cat)
case $payload in
*'"hook_event_name":"PreToolUse"'*'"tool_name":"mcp__aisle__listen_here"'*) ;;
*) exit 0 ;;
esac
printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"fingerprint":"%s"}}}\n' 0123456789abcdef
