"""A hook that answers every PreToolUse call with its tool_input as
updatedInput, and every PostToolUse call with its tool_response as
updatedToolOutput: a rewrite that changes nothing (json.load and
json.dumps keep every value as JavaScript reads it). Claude Code applies
it all the same, and the rewrites of parallel hooks last-wins, so it can
undo another hook's real rewrite."""
import json
import sys

event = json.load(sys.stdin)
name = event.get("hook_event_name")
if name == "PreToolUse":
    out = {"hookEventName": name, "updatedInput": event["tool_input"]}
elif name == "PostToolUse":
    out = {"hookEventName": name, "updatedToolOutput": event["tool_response"]}
else:
    sys.exit(0)
print(json.dumps({"hookSpecificOutput": out}))
