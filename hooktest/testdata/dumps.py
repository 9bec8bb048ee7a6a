"""The seed's fix in Python: json.load, add a fingerprint, json.dumps.
json.dumps escapes non-ASCII text: the same value for Claude Code."""
import json
import sys

e = json.load(sys.stdin)
if e.get("hook_event_name") != "PreToolUse" or e.get("tool_name") != "mcp__aisle__listen_here":
    sys.exit(0)
ti = e["tool_input"]
ti["fingerprint"] = "0123456789abcdef"
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": ti}}))
