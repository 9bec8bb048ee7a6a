"""The seed's fix in Python: a PreToolUse hook for listen_here calls that
decodes tool_input with json.load, adds a fingerprint of the working
directory and writes it back with json.dumps. json.dumps escapes non-ASCII
text (a respelling Claude Code cannot tell from the original: a note), and
keeps big integers and lone surrogates; it passes hookcheck."""
import hashlib
import json
import re
import sys

event = json.load(sys.stdin)
if event.get("hook_event_name") != "PreToolUse" or not re.fullmatch(r"mcp__.*__listen_here", event.get("tool_name", "")):
    sys.exit(0)
tool_input = event["tool_input"]
tool_input["fingerprint"] = hashlib.sha256(event["cwd"].encode("utf-8", "surrogatepass")).hexdigest()[:16]
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": tool_input}}))
