#!/usr/bin/env bash
# BROKEN ON PURPOSE: the seed bug, for the seed's own tool
# mcp__aisle__listen_here, which no fixture calls. Its updatedInput holds
# only the fingerprint, so Claude Code calls the tool without its other
# members.
payload=$(cat)
case $payload in
*'"hook_event_name":"PreToolUse"'*'"tool_name":"mcp__aisle__listen_here"'*) ;;
*) exit 0 ;;
esac
printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"fingerprint":"%s"}}}\n' "0123456789abcdef"
