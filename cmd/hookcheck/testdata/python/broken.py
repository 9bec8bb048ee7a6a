"""BROKEN ON PURPOSE. A Python hook that raises the timeout of long Bash
commands. It decodes tool_input with json.load and writes it back with
json.dumps (numbers and escapes rewritten), answers a null reason, and
crashes with a traceback when "command" is not a string."""
import json
import sys

event = json.load(sys.stdin)
if event.get("hook_event_name") != "PreToolUse" or event.get("tool_name") != "Bash":
    sys.exit(0)
tool_input = event["tool_input"]
if tool_input["command"].startswith("npm test"):
    tool_input["timeout"] = 600000
answer = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "permissionDecisionReason": None,
        "updatedInput": tool_input,
    }
}
print(json.dumps(answer))
