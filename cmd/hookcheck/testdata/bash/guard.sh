#!/usr/bin/env bash
# BROKEN ON PURPOSE. A guard against "rm -rf" with three mistakes:
#   - on PreToolUse it prints a JSON block and also exits 2 (Claude Code
#     then ignores stdout);
#   - on PermissionRequest it answers with PreToolUse's permissionDecision,
#     a field PermissionRequest does not take, and without the decision
#     PermissionRequest requires;
#   - it cannot read \u escapes, and fails closed on them: a command that
#     holds one is blocked, though it is as harmless as any.
payload=$(cat)
case $payload in
*'"hook_event_name":"PreToolUse"'*'"tool_name":"Bash"'*'rm -rf'*)
	echo '{"decision":"block","reason":"rm -rf is not allowed"}'
	echo 'rm -rf is not allowed' >&2
	exit 2
	;;
*'"hook_event_name":"PreToolUse"'*'"tool_name":"Bash"'*'\u'*)
	echo 'guard: cannot read the command' >&2
	exit 2
	;;
*'"hook_event_name":"PermissionRequest"'*)
	echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","permissionDecision":"allow"}}'
	;;
esac
exit 0
