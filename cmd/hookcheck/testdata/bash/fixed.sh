#!/usr/bin/env bash
# The hook of handbuilt.sh, fixed. It still adds a fingerprint of the
# working directory to listen_here calls, but its updatedInput is the
# incoming tool_input with only "fingerprint" set: every other member is
# copied byte for byte, never decoded and encoded again. Neither printf
# nor jq can do that (jq rounds big numbers and rewrites escapes), so the
# JSON surgery is a short Python program that splices raw text.
set -euo pipefail
payload=$(cat)
case $payload in
*'"hook_event_name":"PreToolUse"'*'"tool_name":"mcp__'*'__listen_here"'*) ;;
*) exit 0 ;;
esac
splice='
import hashlib, json, sys

scan = json.JSONDecoder().scan_once

def members(s, i):
    """Yields (name, start, end) for each member of the object at s[i]."""
    i += 1
    while True:
        while s[i] in " \t\r\n,":
            i += 1
        if s[i] == "}":
            return
        name, i = scan(s, i)
        while s[i] in " \t\r\n:":
            i += 1
        _, end = scan(s, i)
        yield name, i, end
        i = end

s = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
top = {name: (a, b) for name, a, b in members(s, s.index("{"))}
a, b = top["tool_input"]
tool_input = s[a:b]
cwd = json.loads(s[slice(*top["cwd"])])
fp = json.dumps(hashlib.sha256(cwd.encode("utf-8", "surrogatepass")).hexdigest()[:16])
fields = {name: (a, b) for name, a, b in members(tool_input, 0)}
if "fingerprint" in fields:
    a, b = fields["fingerprint"]
    updated = tool_input[:a] + fp + tool_input[b:]
elif fields:
    updated = tool_input[: tool_input.rindex("}")] + ",\"fingerprint\":" + fp + "}"
else:
    updated = "{\"fingerprint\":" + fp + "}"
answer = "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":" + updated + "}}\n"
sys.stdout.buffer.write(answer.encode("utf-8", "surrogateescape"))
'
printf '%s' "$payload" | python3 -c "$splice"
