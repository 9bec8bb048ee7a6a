"""A PostToolUse redaction hook written by hand, as a new user writes it:
it builds a fresh result of the members it knows (Bash: stdout and
stderr, dropping interrupted, isImage, ...) and of an MCP tool's result
keeps the first block only. hookcheck must report what it drops."""
import json
import re
import sys

SECRET = re.compile(r"sk-live-[0-9A-Za-z]+")


def redact(s):
    return SECRET.sub("[redacted]", s) if isinstance(s, str) else s


event = json.load(sys.stdin)
if event.get("hook_event_name") != "PostToolUse":
    sys.exit(0)
resp = event.get("tool_response")
tool = event.get("tool_name", "")
if tool == "Bash" and isinstance(resp, dict):
    out = {"stdout": redact(resp.get("stdout", "")), "stderr": redact(resp.get("stderr", ""))}
elif tool.startswith("mcp__") and isinstance(resp, list) and resp:
    first = resp[0] if isinstance(resp[0], dict) else {}
    out = [{"type": "text", "text": redact(first.get("text", ""))}]
else:
    sys.exit(0)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": out}}))
