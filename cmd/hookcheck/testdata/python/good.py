"""A good Python hook: on PreToolUse it tells Claude which tool ran, as
additional context. It never sends updatedInput, so it cannot lose or
mangle a member, and json.dumps writes its answer."""
import json
import sys

event = json.load(sys.stdin)
if event.get("hook_event_name") == "PreToolUse":
    answer = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "additionalContext": "checked by good.py: " + str(event.get("tool_name")),
        }
    }
    print(json.dumps(answer))
